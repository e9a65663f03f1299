package reducer

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// A PermissionRequest the agent's own reviewer decides first is no wait:
// the call stays pending (working) and ends as any other; a question is
// still a question (nobody reviews those for the person).
func TestAutoReviewedPermissionRequest(t *testing.T) {
	fold := func(evs ...Event) session.HookState {
		var h session.HookState
		for i := range evs {
			evs[i].SessionID = "s"
			Fold(&h, &evs[i], t0.Add(time.Duration(i)*time.Second))
		}
		return h
	}
	prompt := Event{Name: UserPromptSubmit, Prompt: "clean up"}
	pre := Event{Name: PreToolUse, ToolName: "Bash", ToolInput: []byte(`{"command":"rm -rf build"}`), ToolUseID: "c1"}
	perm := Event{Name: PermissionRequest, ToolName: "Bash", ToolInput: []byte(`{"command":"rm -rf build"}`), AutoReviewed: true}
	post := Event{Name: PostToolUse, ToolName: "Bash", ToolInput: []byte(`{"command":"rm -rf build"}`), ToolUseID: "c1"}
	if h := fold(prompt, pre, perm); h.State != session.Working {
		t.Fatalf("auto-reviewed request: %s, want working (no alert before anybody is asked)", h.State)
	}
	if h := fold(prompt, pre, perm, post, Event{Name: Stop}); h.State != session.Done {
		t.Fatalf("after the approved call and Stop: %s, want done", h.State)
	}
	manual := perm
	manual.AutoReviewed = false
	if h := fold(prompt, pre, manual); h.State != session.Waiting {
		t.Fatalf("without auto-review: %s, want waiting", h.State)
	}
	ask := Event{Name: PermissionRequest, ToolName: toolAskUserQuestion, AutoReviewed: true}
	if h := fold(prompt, ask); h.State != session.Waiting || h.Reason != session.ReasonQuestion {
		t.Fatalf("a question under auto-review: %s(%s), want waiting(question)", h.State, h.Reason)
	}
}
