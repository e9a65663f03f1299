package e2e

// The question class of the conformance walk (e2e/matrix "question"), for
// the agents whose agentCLI names a questionDialog: the model asks the
// person with the agent's question tool (fakellm.Ask) → waiting(question);
// the first choice picked with keys → not waiting, the answer reaches the
// model, working while its reply trickles, then done; asked again and
// dismissed → not waiting, then done where the model is told and answers,
// else idle (never done) once the turn the dismissal ended is over; the
// next turn → done; a reply quoting the dialog → never waiting. Walked in
// conformWalk, or in a session of its own (conformQuestion) where
// agentCLI.questionApart says so.

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// OpenCode 1.18's question dialog (Kilo 7.7.7 draws the same): it takes
// the input box's place, its keys on its last row but one.
var openCodeQuestion = regexp.MustCompile(`┃\s+↑↓ select  enter submit  esc dismiss`)

func openCodeAsked(h driver.HookSeen) bool { return h.Event == "question.asked" }
func openCodeAnswered(h driver.HookSeen) bool {
	return h.Event == "question.replied" || h.Event == "question.rejected"
}

// questionShown submits scenario (the model asks) and returns when the CLI
// showed its question, judged waiting(question): the moment is its
// screen's, or its own event's when that is earlier and Mew is told of it
// by hooks.
func (w *walk) questionShown(scenario string) driver.Snap {
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

// answerQuestion presses keys on the question shown and returns the
// answer and the moment Mew can know of it: the dialog gone, or with the
// pane unread the CLI's own event: questionOver, else after (the CLI's
// first event after an answer, or its end of a dismissed turn).
func (w *walk) answerQuestion(shown driver.Snap, keys []string, after func(driver.HookSeen) bool) (driver.Answered, time.Time) {
	w.t.Helper()
	a, err := w.r.Answer(w.cli.questionDialog, shown.At, keys...)
	if err != nil {
		w.t.Fatal(err)
	}
	ref := a.Gone
	if w.mode == modeHooks && w.cli.questionOver != nil {
		// After the dialog showed, not after the press taken: a loaded
		// CLI redraws late, and a press repeated then is the one Answer
		// reports, after the event of the first.
		ref = w.observed(shown.At, "the question's answered event", w.cli.questionOver)
		w.t.Logf("its event came %v after the key", ref.Sub(a.Pressed).Round(time.Millisecond))
	} else if w.mode == modeHooks && after != nil {
		ref = w.observed(a.Pressed, "the CLI's first event after the key", after)
	}
	return a, ref
}

func (w *walk) question() {
	w.t.Helper()
	c := w.cli
	// Answered: the reply after it trickles (AskBrief), so a turn still
	// running is seen as one.
	a, ref := w.answerQuestion(w.questionShown(fakellm.AskBrief), orKeys(c.questionKeys, "Enter"), c.answeredEvent)
	left := w.expect("question answered → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	end := w.turnEnded(a.Pressed, fakellm.AskBrief, "the answered question's turn end")
	if w.walks("allow") {
		// Where its screen tells a turn running after a call (not
		// Gemini CLI's with the driver's hooks drawn over its spinner).
		from := ref.Add(max(left.Hi, w.goal))
		w.never("answered: working until the turn ends", from, end.Add(-w.goal), func(sh session.Shown, listed bool) bool {
			return listed && sh.State != session.Working
		})
	}
	w.staysDone("the answered question's turn", end)
	// The keys picked the first choice: the model was told so (where the
	// stand-in logs the tool's result: its OpenAI API).
	var told []string
	for _, l := range w.api.Log() {
		if l.At.After(a.Pressed) && l.Why == fakellm.AskBrief+"/1" && l.Result != "" {
			told = append(told, l.Result)
		}
	}
	if len(told) > 0 && !strings.Contains(told[0], fakellm.AskChoices[0]) {
		w.t.Errorf("the model was told %q after the answer, want the choice %q", told, fakellm.AskChoices[0])
	}

	if w.mode == modeHooks && slices.Contains(c.hooksBlind, "deny") {
		w.t.Logf("question dismissed: left out: its hooks cannot tell an Esc on its dialog")
	} else {
		w.dismissQuestion()
	}

	if c.questionQuote == "" {
		return
	}
	// A reply quoting the dialog, as drawn, is no question. Last: the
	// quote stays on the screen, where the question would be looked for.
	sent := w.prompt(fakellm.Prompt(c.questionQuote))
	end = w.turnEnded(sent, c.questionQuote, "the quoting turn's end")
	quoted := c.questionQuoted
	if quoted == nil {
		quoted = c.questionDialog
	}
	if _, err := w.r.WaitScreen(sent, quoted, 5*time.Second); err != nil {
		w.t.Errorf("the reply's quote (%q) never showed: %v; screen:\n%s", quoted, err, driver.Excerpt(w.r.Screen(), 20))
	}
	// Not waiting is the class (an instant reply can end between two
	// reads of the screen: idle then, not done).
	w.expect("a reply quoting the question → not waiting", end, w.goal, listedAndNot(session.Waiting))
	w.never("never waiting for a quoted question", sent, end.Add(settleAfter), shows(session.Waiting))
}

// dismissQuestion: asked again, dismissed → not waiting; then, as the
// agent ends such a turn, done (the model told) or idle (never done);
// the next turn → done where its screen or hooks tell the turn after a
// refusal (the "deny" class).
func (w *walk) dismissQuestion() {
	w.t.Helper()
	c := w.cli
	a, ref := w.answerQuestion(w.questionShown(fakellm.Ask), orKeys(c.dismissKeys, "Escape"), c.denyEnd)
	w.t.Logf("dismissed: the dialog went %v after the key", a.Gone.Sub(a.Pressed).Round(time.Millisecond))
	res := w.expect("question dismissed → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	switch {
	case c.dismissGoesOn:
		end := w.turnEnded(a.Pressed, fakellm.Ask, "the dismissed question's turn end")
		w.never("question dismissed: not waiting again", ref.Add(max(res.Hi, w.goal)), end.Add(settleAfter), shows(session.Waiting))
		w.staysDone("the turn after the dismissal", end)
	case c.dismissIdle:
		// The dismissal ended the turn: nobody's answer is due, the
		// person's move, as after an Esc (idle, not done).
		over := a.Gone
		if c.turnEnd != nil {
			over = w.observed(a.Pressed, "the dismissed question's turn end", c.turnEnd)
		}
		w.expect("question dismissed, the turn over → idle", over, w.goal, stateIs(session.Idle))
		w.never("question dismissed: never done", a.Gone, over.Add(settleAfter), shows(session.Done))
	default:
		if c.denyEnd != nil {
			w.observed(a.Pressed, "the CLI's end of the dismissed question's turn", c.denyEnd)
		} else if c.turnEnd != nil {
			w.r.WaitHook(a.Pressed, c.turnEnd, 5*time.Second)
		}
	}
	if !w.walks("deny") {
		return // the turn after it is as the one after a denial
	}
	sent := w.prompt(fakellm.Prompt(w.text))
	w.staysDone("the turn after the dismissed question", w.turnEnded(sent, w.text, "the turn after the dismissed question"))
}

// conformQuestion walks the question class of c in mode, in a session of
// its own.
func conformQuestion(t *testing.T, c agentCLI, mode string) {
	if c.questionDialog == nil {
		t.Fatalf("%s: no question dialog known", c.name)
	}
	w := startWalk(t, c, mode)
	w.fresh()
	w.question()
}

func TestConformOpenCodeQuestionHooksPane(t *testing.T) {
	conformQuestion(t, openCodeCLI, modeHooksPane)
}
func TestConformOpenCodeQuestionScreen(t *testing.T) { conformQuestion(t, openCodeCLI, modeScreen) }
func TestConformOpenCodeQuestionHooks(t *testing.T)  { conformQuestion(t, openCodeCLI, modeHooks) }
func TestConformKiloQuestionHooksPane(t *testing.T)  { conformQuestion(t, kiloCLI, modeHooksPane) }
func TestConformKiloQuestionScreen(t *testing.T)     { conformQuestion(t, kiloCLI, modeScreen) }
func TestConformKiloQuestionHooks(t *testing.T)      { conformQuestion(t, kiloCLI, modeHooks) }
