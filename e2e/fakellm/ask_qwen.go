package fakellm

// Qwen Code 0.24.4's question tool, ask_user_question (packages/core/src/
// tools/askUserQuestion.ts): questions[] of question, header (≤ 12
// characters) and options[] of label and description (both non-empty),
// 2-4 of them; no other keys (additionalProperties false).
func init() {
	askTools["ask_user_question"] = func() map[string]any {
		return map[string]any{"questions": []any{map[string]any{
			"question": AskQuestion, "header": "Framework", "options": askOptions(), "multiSelect": false,
		}}}
	}
}
