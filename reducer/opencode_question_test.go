package reducer

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// OpenCode 1.18.33's question tool (Kilo 7.7.7 the same), its events in
// the order the e2e suite saw them (e2e/conform_question_test.go): asked,
// then replied or rejected (the person's Esc, "dismissed"), then idle.
func TestOpenCodeQuestion(t *testing.T) {
	asked := ocEvent("question.asked", `,"id":"que_1","questions":[{"question":"Which framework?","header":"Framework","options":[{"label":"React","description":"Use React"},{"label":"Vue","description":"Use Vue"}]}],"tool":{"messageID":"msg_1","callID":"call_1"}`)
	replied := ocEvent("question.replied", `,"requestID":"que_1","answers":[["React"]]`)
	rejected := ocEvent("question.rejected", `,"requestID":"que_1"`)
	for _, agent := range []string{session.AgentOpenCode, session.AgentKilo} {
		if h := playAs(t, agent, ocCreated, ocBusy, asked); h.State != session.Waiting || h.Reason != session.ReasonQuestion {
			t.Errorf("%s: asked: %s(%s), want waiting(question)", agent, h.State, h.Reason)
		}
		if h := playAs(t, agent, ocCreated, ocBusy, asked, replied); h.State != session.Working {
			t.Errorf("%s: answered: %s, want working (the model has the answer)", agent, h.State)
		}
		if h := playAs(t, agent, ocCreated, ocBusy, asked, replied, ocBusy, ocIdle, ocIdle2); h.State != session.Done {
			t.Errorf("%s: answered, the turn over: %s, want done", agent, h.State)
		}
		// Dismissed: the turn ends with it, nothing of the model's to
		// read; the person's move, as after Esc (issue 35: it showed done).
		if h := playAs(t, agent, ocCreated, ocBusy, asked, rejected); h.State == session.Waiting || h.State == session.Done {
			t.Errorf("%s: dismissed: %s, want neither waiting nor done", agent, h.State)
		}
		if h := playAs(t, agent, ocCreated, ocBusy, asked, rejected, ocIdle, ocIdle2); h.State != session.Idle {
			t.Errorf("%s: dismissed, the turn over: %s from %s, want idle", agent, h.State, h.Source)
		}
		if h := playAs(t, agent, ocCreated, ocBusy, asked, rejected, ocIdle, ocIdle2, ocBusy, ocIdle, ocIdle2); h.State != session.Done {
			t.Errorf("%s: the next turn over: %s, want done", agent, h.State)
		}
	}
}
