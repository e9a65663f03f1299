package e2e

// The conformance walk's question class (e2e/matrix "question"), for the
// agents whose agentCLI names a questionDialog.

import (
	"regexp"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// question: a reply quoting the question dialog is never waiting; the
// model asks with the agent's question tool → waiting(question); answered
// with questionKeys → working while the reply trickles, then done; asked
// again, Esc → not waiting, and not waiting again until that turn is over.
func (w *walk) question() {
	w.t.Helper()
	c := w.cli
	if c.questionQuote != "" {
		// First, while no question of the walk's has drawn AskQuestion's
		// words: on the screen they are the quote's.
		sent := w.prompt(fakellm.Prompt(c.questionQuote))
		end := w.turnEnded(sent, c.questionQuote, "the quoting turn's end")
		if _, err := w.r.WaitScreen(sent, regexp.MustCompile(regexp.QuoteMeta(fakellm.AskQuestion)), 5*time.Second); err != nil {
			w.t.Errorf("the reply's quote of the question never showed: %v; screen:\n%s", err, driver.Excerpt(w.r.Screen(), 14))
		}
		w.expect("a reply quoting the question → done", end, w.goal, stateIs(session.Done))
		w.never("never waiting for a quoted question", sent, end.Add(settleAfter), shows(session.Waiting))
	}

	shown := w.askShown(fakellm.AskBrief)
	a, err := w.r.Answer(c.questionDialog, shown.At, orKeys(c.questionKeys, "Enter")...)
	if err != nil {
		w.t.Fatal(err)
	}
	res := w.expect("answered → working", a.Gone, w.goal, stateIs(session.Working))
	end := w.turnEnded(a.Pressed, fakellm.AskBrief, "the answered turn's end")
	from := a.Gone.Add(max(res.Hi, w.goal))
	w.never("answered: working until the turn ends", from, end.Add(-w.goal), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	w.staysDone("the answered turn", end)

	shown = w.askShown(fakellm.Ask)
	if a, err = w.r.Answer(c.questionDialog, shown.At, "Escape"); err != nil {
		w.t.Fatal(err)
	}
	w.t.Logf("Esc on the question: the dialog went %v after the key", a.Gone.Sub(a.Pressed).Round(time.Millisecond))
	res = w.expect("Esc on the question → not waiting", a.Gone, w.goal, listedAndNot(session.Waiting))
	end = w.turnEnded(a.Pressed, fakellm.Ask, "the end of the turn the Esc answered")
	w.never("Esc on the question: not waiting again", a.Gone.Add(max(res.Hi, w.goal)), end.Add(settleAfter), shows(session.Waiting))
	if all := w.r.Samples(); len(all) > 0 {
		if sh, ok := all[len(all)-1].Find(w.r.SessionID()); ok {
			w.t.Logf("Esc on the question: the turn over, Mew shows %s", driver.ShownString(sh))
		}
	}
}

// askShown submits scenario (the model asks) and returns when the CLI drew
// its question dialog, judged waiting(question): its moment is the
// screen's, or its own event's when Mew is told of it by hooks.
func (w *walk) askShown(scenario string) driver.Snap {
	w.t.Helper()
	c := w.cli
	sent := w.prompt(fakellm.Prompt(scenario))
	shown, err := w.r.WaitScreen(sent, c.questionDialog, cliTurn)
	if err != nil {
		w.t.Fatal(err)
	}
	ref := shown.At
	if w.mode != modeScreen && c.questionEvent != nil {
		if ev := w.observed(sent, "the question's event", c.questionEvent); w.mode == modeHooks || ev.Before(ref) {
			ref = ev
		}
	}
	w.expect("question → waiting(question)", ref, w.goal, waitingFor(session.ReasonQuestion))
	return shown
}
