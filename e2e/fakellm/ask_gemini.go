package fakellm

// geminiAskTools are the question tools of agents on the Gemini API, as
// askTools are on the OpenAI one: Gemini CLI's ask_user is not Copilot
// CLI's, whose tool has the same name.
var geminiAskTools = map[string]func() map[string]any{}

// Gemini CLI 0.61.0's question tool, ask_user (packages/core/src/tools/
// ask-user.ts): questions[] of question, header, type ("choice") and
// options[] of label and description (both required), 2-4 of them.
func init() {
	geminiAskTools["ask_user"] = func() map[string]any {
		return map[string]any{"questions": []any{map[string]any{
			"question": AskQuestion, "header": "Framework", "type": "choice", "options": askOptions(),
		}}}
	}
}

// askOptions are AskChoices as label and description objects (Gemini CLI's
// and Qwen Code's option shape).
func askOptions() []any {
	var out []any
	for _, c := range AskChoices {
		out = append(out, map[string]any{"label": c, "description": "Use " + c})
	}
	return out
}

// geminiAskCall is the ask reply's functionCall on the Gemini API: the
// question tool req offers (the first known one), or Continue's.
func geminiAskCall(req geminiRequest) map[string]any {
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			if args, ok := geminiAskTools[d.Name]; ok {
				return map[string]any{"name": d.Name, "args": args()}
			}
		}
	}
	return map[string]any{"name": "AskQuestion", "args": askTools["AskQuestion"]()}
}
