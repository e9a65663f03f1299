package e2e

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// mewAnswersQuestion: the question answered through `mew answer` (OpenCode
// and Kilo CLI, whose dialog is OpenCode's): it lists the question's
// numbered options but "Type your own answer" (a text box), and choice 2
// types the digit that picks Vue at once: the dialog goes, Vue reaches
// the model, the turn ends done. In a session of its own: as a step of the
// question walk, the walk's reply quoting the question is still on the
// screen, so the dialog's hint row "is shown" before the question is asked
// and `mew answer` ran before the dialog was drawn (clean run L, Kilo).
func TestOpenCodeAnswerQuestion(t *testing.T) { mewAnswersQuestion(t, openCodeCLI) }

// Kilo CLI draws OpenCode's question dialog, and takes its digits.
func TestKiloAnswerQuestion(t *testing.T) { mewAnswersQuestion(t, kiloCLI) }

func mewAnswersQuestion(t *testing.T, c agentCLI) {
	w := startWalk(t, c, modeHooksPane)
	w.questionShown(fakellm.Ask)
	id := w.r.SessionID()
	out, errOut, code := w.mewList(id)
	if code != 0 || !strings.Contains(out, "1  React\n") || !strings.Contains(out, "2  Vue\n") || strings.Contains(out, "Type your own answer") {
		t.Fatalf("mew answer %s: exit %d, want choices 1 React and 2 Vue only:\n%s%s", id, code, out, errOut)
	}
	a := w.mewAnswer(openCodeQuestion, id, "2")
	w.answered("mew answer: question answered (2)", a)
	w.expect("mew answer: answered → not waiting", a.goneAt, w.goal, listedAndNot(session.Waiting))
	end := w.turnEnded(a.started, fakellm.Ask, "the answered question's turn end")
	w.expect("mew answer: the turn → done", end, w.goal, stateIs(session.Done))
	var told []string
	for _, l := range w.api.Log() {
		if l.At.After(a.started) && l.Why == fakellm.Ask+"/1" {
			told = append(told, l.Result)
		}
	}
	if len(told) == 0 || !strings.Contains(told[0], fakellm.AskChoices[1]) {
		t.Errorf("the model was told %q after `mew answer 2`, want the choice %q", told, fakellm.AskChoices[1])
	}
}
