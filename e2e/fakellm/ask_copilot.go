package fakellm

// QuoteCopilotAsk is a reply quoting GitHub Copilot CLI's question dialog
// (ask_user's form) as its screen draws it: nobody is asked anything.
const QuoteCopilotAsk = "quotecopilotask"

// GitHub Copilot CLI 1.0.102 offers ask_user(message, requestedSchema): an
// elicitation form, each property a field; a string field with an enum is
// a single choice (the person may also type an answer of their own).
func init() {
	askTools["ask_user"] = func() map[string]any {
		return map[string]any{
			"message": AskQuestion,
			"requestedSchema": map[string]any{"properties": map[string]any{
				"framework": map[string]any{"type": "string", "title": "Framework", "enum": AskChoices},
			}},
		}
	}
	quotes[QuoteCopilotAsk] = "Copilot asks like this:\n\n" +
		"Copilot needs information.\n" +
		AskQuestion + "\n\n" +
		"Framework:\n" +
		"❯ React\n" +
		"  Vue\n" +
		"  Other (type your answer)\n\n" +
		"↑/↓ select · enter accept · ctrl+d decline · esc cancel\n\n" +
		"Nothing is waiting for you here."
}
