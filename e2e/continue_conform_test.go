package e2e

// Continue CLI's cells of the conformance matrix (issue 35, e2e/matrix):
// its screen is all Mew has, so one session, started as an npm global
// install's link under `env VAR=…`, walks the classes in a row — a fresh
// pane, Esc on the dialog and the turn after it, Esc while it works and the
// turn after it, a reply quoting the dialog, an API error, a question
// (AskQuestion) answered, and kill -9 while waiting.

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var (
	cnQuoted = regexp.MustCompile(`Nothing is waiting for you here`)
	// The quote's rows, as Continue draws a reply: two columns in.
	cnQuote = regexp.MustCompile(`(?m)^  │  Would you like to continue\?`)
	cnError = regexp.MustCompile(`(?i)error`)
	// AskQuestion's dialog (in a box in place of the input box), as the
	// stand-in asks it.
	cnQuestion = regexp.MustCompile(`(?m)^│\s+\? Which framework\?`)
)

// cnTurnOver submits prompt and returns when Continue showed the turn
// over: the working line came and went, and reply is on the screen.
func (s *scen) cnTurnOver(prompt string, reply *regexp.Regexp) time.Time {
	s.t.Helper()
	sent := s.submit(prompt)
	w, err := s.r.WaitScreen(sent, cnWorking, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.replyWithoutWorking(w.At, reply, cnWorking)
}

func TestContinueConform(t *testing.T) {
	s := startContinueWith(t, func(o *driver.Options) {
		o.Program = npmGlobalLink(t, o.Program, "@continuedev/cli/dist/cn.js", "cn")
		o.Wrap = []string{"env", "MEW_E2E_LAUNCHER=env"}
	})
	s.freshIdle(screenOnly, false)

	s.deniedWithEscape(cnDialog, cnDenied, s.cnDialogShown(), func(denied time.Time) time.Time { return denied })
	// "[Tool canceled - please tell Continue what to do differently]": the
	// turn ended there, the person stopped it.
	s.expect("denied → idle, not done", time.Now(), screenOnly, stateIs(session.Idle))
	s.staysDoneWithin("the turn after the denial", s.cnTurnOver(fakellm.Prompt(fakellm.Brief), cnReply), screenOnly)

	sent := s.submit(fakellm.Prompt(fakellm.Slow))
	working, err := s.r.WaitScreen(sent, cnWorking, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("prompt sent → working", working.At, screenOnly, stateIs(session.Working))
	esc := s.press("Escape")
	stopped, err := s.r.WaitScreen(esc, cnInterrupted, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("Esc while working → idle", stopped.At, screenOnly, stateIs(session.Idle))
	s.never("no done on the way to idle", esc, stopped.At.Add(settleAfter), shows(session.Done))
	s.staysDoneWithin("the turn after the Esc", s.cnTurnOver(fakellm.Prompt(fakellm.Brief), cnReply), screenOnly)

	sent = s.submit(fakellm.Prompt(fakellm.QuoteContinue))
	end := s.replyWithoutWorking(sent, cnQuoted, cnWorking)
	if !cnQuote.MatchString(s.r.Screen()) {
		t.Errorf("the quoted dialog is not on the screen: the check proves nothing")
	}
	// Not waiting is the class; done or idle (an instant reply can end
	// between two reads of the screen: then idle, a limit of reading it).
	s.expect("a reply quoting the dialog → not waiting", end, screenOnly, listedAndNot(session.Waiting))
	s.never("never waiting for a quoted dialog", sent, end.Add(settleAfter), shows(session.Waiting))

	sent = s.submit(fakellm.Prompt(fakellm.Error))
	failed := s.replyWithoutWorking(sent, cnError, cnWorking)
	t.Logf("API error: on the screen %v after the prompt", failed.Sub(sent).Round(time.Millisecond))
	s.expect("API error → failed", failed, screenOnly, stateIs(session.Failed))
	// From the turn's start on (its working line, if a capture saw it): the
	// turn before's done shows until then.
	started := sent
	if w, err := s.r.WaitScreen(sent, cnWorking, 0); err == nil && w.At.Before(failed) {
		started = w.At
	}
	s.never("no done on the way to failed", started.Add(screenOnly), failed.Add(settleAfter), shows(session.Done))

	sent = s.submit(fakellm.Prompt(fakellm.AskContinue))
	asked, err := s.r.WaitScreen(sent, cnQuestion, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("the question → waiting(question)", asked.At, screenOnly, waitingFor(session.ReasonQuestion))
	answered := s.answer(cnQuestion, asked.At, "Enter")
	s.expect("answered → not waiting", answered, screenOnly, listedAndNot(session.Waiting))
	s.expect("the turn after the answer → done", s.replyWithoutWorking(answered, cnDone, cnWorking), screenOnly, stateIs(session.Done))

	s.cnDialogShown()
	killed := s.killAgent()
	s.expect("kill -9 while waiting → exited", killed, exit, exitedOrGone)
	s.never("no waiting after the kill", killed.Add(exit), killed.Add(exit+settleAfter), shows(session.Waiting))
}

// Under `mew run` (the launcher shape that reads the screen's bytes
// itself): an HTTP 500 on every request → working while Continue retries
// (unshown: about 4 s), then failed; a plain turn, the dialog allowed,
// quit (the error line left above them).
func TestContinueUnderMewRun(t *testing.T) {
	s := startContinueWith(t, func(o *driver.Options) { o.Wrap = runWrap(true, o.Mew) })
	sent := s.submit(fakellm.Prompt(fakellm.Down))
	failed := s.replyWithoutWorking(sent, cnError, cnWorking)
	t.Logf("HTTP 500: failed on the screen %v after the prompt", failed.Sub(sent).Round(time.Millisecond))
	s.expect("API error → failed", failed, screenOnly, stateIs(session.Failed))
	s.never("never done", sent, failed.Add(settleAfter), shows(session.Done))
	s.turnsAndExit(screenOnlyCLI{agent: session.AgentContinue, working: cnWorking, reply: cnReply, done: cnDone,
		dialog: cnDialog, quit: s.cnQuit})
}
