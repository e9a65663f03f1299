package reducer

import (
	"slices"
	"testing"

	"github.com/mew-dev/mew/session"
)

// gq folds agent's payloads as mew-hook does (playAs), each given a
// session id.
func gq(t *testing.T, agent string, payloads ...string) session.HookState {
	t.Helper()
	var with []string
	for _, p := range payloads {
		with = append(with, `{"session_id":"s",`+p[1:])
	}
	return playAs(t, agent, with...)
}

// The question tools' input, as the e2e stand-in sends it (Gemini CLI's
// ask_user adds "type").
const gqAskInput = `"tool_input":{"questions":[{"question":"Which framework?","header":"Framework","type":"choice",` +
	`"options":[{"label":"React","description":"Use React"},{"label":"Vue","description":"Use Vue"}]}]}`

// Gemini CLI 0.61.0's ask_user: BeforeTool, then its Notification
// ToolPermission (the confirmation it draws as "Answer Questions"), then
// AfterTool once answered. Mew said waiting(permission) (issue 35, e2e):
// it is a question, with its choices.
func TestGeminiAskUserIsAQuestion(t *testing.T) {
	prompt := ev("BeforeAgent", `"prompt":"please mew-e2e-ask"`)
	pre := ev("BeforeTool", `"tool_name":"ask_user"`, gqAskInput)
	note := ev(Notification, `"notification_type":"ToolPermission"`, `"message":"Tool requires confirmation"`, `"details":{"type":"ask_user","title":"Ask User"}`)
	post := ev("AfterTool", `"tool_name":"ask_user"`, gqAskInput, `"tool_response":{"llmContent":"{}"}`)
	for _, seq := range [][]string{{prompt, pre}, {prompt, pre, note}} {
		h := gq(t, session.AgentGemini, seq...)
		if h.State != session.Waiting || h.Reason != session.ReasonQuestion || h.ToolDetail != "Which framework?" {
			t.Fatalf("after %d events: %s(%s) %q, want waiting(question)", len(seq), h.State, h.Reason, h.ToolDetail)
		}
		if w := h.Pending[0]; !slices.Equal(w.Options, []string{"React", "Vue"}) {
			t.Errorf("choices: %q", w.Options)
		}
	}
	if h := gq(t, session.AgentGemini, prompt, pre, note, post); h.State != session.Working {
		t.Errorf("answered: %s, want working", h.State)
	}
	plan := ev("BeforeTool", `"tool_name":"exit_plan_mode"`, `"tool_input":{"plan_filename":"plan.md"}`)
	if h := gq(t, session.AgentGemini, prompt, plan, note); h.State != session.Waiting || h.Reason != session.ReasonPlan {
		t.Errorf("exit_plan_mode: %s(%s), want waiting(plan)", h.State, h.Reason)
	}
}

// Qwen Code 0.24.4's ask_user_question: PermissionRequest, then its
// Notification permission_prompt, before the dialog is drawn; PreToolUse
// once answered (the e2e walk's hooks, TestConformQwenHooks). Mew said
// waiting(permission) (issue 35, e2e): it is a question.
func TestQwenAskUserQuestionIsAQuestion(t *testing.T) {
	prompt := ev(UserPromptSubmit, `"prompt":"please mew-e2e-ask"`)
	req := ev(PermissionRequest, `"tool_name":"ask_user_question"`, gqAskInput)
	note := ev(Notification, `"notification_type":"permission_prompt"`, `"message":"Qwen Code needs your permission to use AskUserQuestion"`)
	h := gq(t, session.AgentQwen, prompt, req, note)
	if h.State != session.Waiting || h.Reason != session.ReasonQuestion || h.ToolDetail != "Which framework?" {
		t.Fatalf("ask_user_question: %s(%s) %q, want waiting(question)", h.State, h.Reason, h.ToolDetail)
	}
	if !slices.Equal(h.Pending[0].Options, []string{"React", "Vue"}) {
		t.Errorf("choices: %q", h.Pending[0].Options)
	}
	// Answered: Qwen's PreToolUse comes only then (the e2e walk's hooks).
	pre := ev(PreToolUse, `"tool_name":"ask_user_question"`, gqAskInput, `"tool_use_id":"toolu_1"`)
	if h := gq(t, session.AgentQwen, prompt, req, note, pre); h.State != session.Working {
		t.Errorf("answered: %s(%s), want working", h.State, h.Reason)
	}
	plan := ev(PermissionRequest, `"tool_name":"exit_plan_mode"`, `"tool_input":{"plan":"1. Do it"}`)
	if h := gq(t, session.AgentQwen, prompt, plan, note); h.State != session.Waiting || h.Reason != session.ReasonPlan {
		t.Errorf("exit_plan_mode: %s(%s), want waiting(plan)", h.State, h.Reason)
	}
}
