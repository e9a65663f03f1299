package fakellm

// OpenCode's question tool (1.18.33; Kilo 7.7.7, its fork, offers the same):
// "question", offered when the client is its TUI ("cli"), its arguments a
// list of questions, each with a short header and options of a label and a
// description.
func init() {
	askTools["question"] = func() map[string]any {
		var options []map[string]any
		for _, c := range AskChoices {
			options = append(options, map[string]any{"label": c, "description": "Use " + c})
		}
		return map[string]any{"questions": []map[string]any{{
			"question": AskQuestion, "header": "Framework", "options": options,
		}}}
	}
}
