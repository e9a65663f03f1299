package fakellm

// QuoteCline is a reply quoting Cline CLI's question dialog as it draws
// it: a reply is no question.
const QuoteCline = "quotecline"

// Cline CLI 3.x: ask_question(question, options), the options 2-5 strings
// (its schema in the 3.0.65 binary; the TUI offers it in act mode).
func init() {
	askTools["ask_question"] = func() map[string]any { return map[string]any{"question": AskQuestion, "options": AskChoices} }
	quotes[QuoteCline] = "Cline asks like this:\n\n" +
		"Cline is asking a question\n\n" +
		AskQuestion + "\n\n" +
		"  > " + AskChoices[0] + "\n" +
		"    " + AskChoices[1] + "\n" +
		"    Type a response...\n\n" +
		"Nothing is waiting for you here."
}
