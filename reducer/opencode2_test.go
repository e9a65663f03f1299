package reducer

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// OpenCode 2.x's events as Mew's plugin forwards them (their data under
// properties; permission.asked's action as permission): a turn is an
// execution, form.* is a question to the person.
func TestOpenCode2Executions(t *testing.T) {
	oc := session.AgentOpenCode
	started := ocEvent("session.execution.started", ``)
	asked := ocEvent("permission.asked", `,"id":"per_2","action":"bash","permission":"bash","resources":["rm -rf build"],"metadata":{"resources":["rm -rf build"]}`)
	replied := ocEvent("permission.replied", `,"requestID":"per_2","reply":"once"`)
	form := ocEvent("form.asked", `,"id":"frm_1","title":"Which database?"`)
	formDone := ocEvent("form.replied", `,"id":"frm_1"`)
	cases := []struct {
		name   string
		events []string
		state  session.State
		reason session.Reason
	}{
		{"started → working", []string{started}, session.Working, ""},
		{"succeeded → done", []string{started, ocEvent("session.execution.succeeded", ``)}, session.Done, ""},
		{"interrupted → idle", []string{started, ocEvent("session.execution.interrupted", ``)}, session.Idle, ""},
		{"failed → failed", []string{started, ocEvent("session.execution.failed", `,"error":{"name":"APIError"}`)}, session.Failed, ""},
		{"permission.asked (action) → waiting(permission)", []string{started, asked}, session.Waiting, session.ReasonPermission},
		{"answered → working", []string{started, asked, replied}, session.Working, ""},
		{"form.asked → waiting(question)", []string{started, form}, session.Waiting, session.ReasonQuestion},
		{"form.replied → working", []string{started, form, formDone}, session.Working, ""},
		{"1.x question.asked → waiting(question)", []string{started, ocEvent("question.asked", `,"id":"que_1"`)}, session.Waiting, session.ReasonQuestion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := playAs(t, oc, c.events...)
			if h.State != c.state || h.Reason != c.reason {
				t.Fatalf("state %s(%s) by %s, want %s(%s)", h.State, h.Reason, h.Source, c.state, c.reason)
			}
		})
	}
	if h := playAs(t, oc, started, asked); h.Tool != "bash" {
		t.Errorf("tool %q, want the action (bash)", h.Tool)
	}
}
