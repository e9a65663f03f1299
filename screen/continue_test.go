package screen

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

func cnFixtureFrame(t *testing.T, path string) rules.Frame {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rules.Frame{Rows: strings.Split(strings.TrimRight(string(data), "\n"), "\n")}
}

// Continue CLI draws its dialogs in place of its input box, the turn's
// spinner above them. A question answered lets the turn go on; when it
// ends before a read sees it run, the idle screen after the dialog is
// still a finished turn (issue 35: the watcher went waiting(question) →
// idle, never done). Escape on the permission dialog ends the turn there
// ("[Tool canceled …]"): idle, not done, and the next finished turn is
// done while that line is still on the screen. The screens are the real
// CLI's (TestContinueConform, the census run cn1).
func TestContinueDialogThenIdle(t *testing.T) {
	set := rules.Embedded().Set("continue")
	question := cnFixtureFrame(t, "../rules/testdata/screens/continue-1.5.47/3-question.txt")
	approval := cnFixtureFrame(t, "../testdata/fixtures/continue-1.5.47/run-cn1/05-approval.txt")
	denied := cnFixtureFrame(t, "../testdata/fixtures/continue-1.5.47/run-cn1/06-after-esc.txt")
	doneAfter := cnFixtureFrame(t, "../testdata/fixtures/continue-1.5.47/run-cn1/08-done-after-tool.txt")
	t0 := time.Unix(1000, 0)
	cases := []struct {
		name           string
		first, then    rules.Frame
		reason         session.Reason
		ended, stopped bool
	}{
		{"a question answered, the turn's end unseen", question, doneAfter, session.ReasonQuestion, true, false},
		{"the dialog allowed, the turn's end unseen", approval, doneAfter, session.ReasonPermission, true, false},
		{"the dialog denied with Escape", approval, denied, session.ReasonPermission, false, true},
	}
	for _, c := range cases {
		var tr Tracker
		tr.Observe(set, c.first, t0)
		if tr.State.State != session.ScreenBlocked || tr.State.Reason != c.reason {
			t.Errorf("%s: the dialog reads %s %s (%s), want blocked %s", c.name, tr.State.State, tr.State.Reason, tr.State.Rule, c.reason)
		}
		tr.Observe(set, c.then, t0.Add(time.Second))
		if st := tr.State; st.State != session.ScreenIdle || st.TurnEnded != c.ended || st.Interrupted != c.stopped {
			t.Errorf("%s: then %s (%s) turn ended %v interrupted %v, want idle, %v, %v", c.name, st.State, st.Rule, st.TurnEnded, st.Interrupted, c.ended, c.stopped)
		}
	}
}
