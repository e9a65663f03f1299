package reducer

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// An agent team's teammate asking permission is the lead session waiting
// on the person, named after the teammate and its tool; the teammate's
// tool running afterwards ends the wait.
func TestWorkerPermissionPromptWaits(t *testing.T) {
	prompt := ev(UserPromptSubmit, `"prompt":"split the work"`)
	worker := ev(Notification, `"notification_type":"worker_permission_prompt"`, `"message":"researcher needs permission for Bash"`)
	h := play(t, prompt, worker)
	if got, reason := h.State, h.Reason; got != session.Waiting || reason != session.ReasonPermission {
		t.Fatalf("state %v (%v), want waiting(permission)", got, reason)
	}
	w := firstWait(h.Pending)
	if w == nil || w.Detail != "researcher needs permission for Bash" {
		t.Fatalf("wait %+v, want it to name the teammate", w)
	}
	// An unknown kind still changes nothing.
	if h := play(t, prompt, ev(Notification, `"notification_type":"worker_something_new"`)); h.State != session.Working {
		t.Fatalf("an unknown notification kind made the session %v", h.State)
	}
	h = play(t, prompt, worker, ev(PostToolUse, `"tool_name":"Bash"`, `"tool_input":{"command":"ls"}`))
	if h.State != session.Working {
		t.Fatalf("after the teammate's tool ran: %v, want working", h.State)
	}
}
