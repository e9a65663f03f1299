package e2e

// A stopped turn leaves its marker in the transcript (Codex's "■ Conversation
// interrupted", OpenCode's and Kilo's "▣ … · interrupted"); the next turn that
// finishes is done (your move), not idle, while the marker is still on the
// screen (issue 35: Codex 4 of 4 runs and OpenCode showed idle for every
// later finished turn). One session walks decline, next turn, Esc while
// working, next turn.

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

var codexStopped = regexp.MustCompile(`Conversation interrupted`)

// staysDone checks that the turn that ended at end is done, and never
// idle for settleAfter (a screen read while the CLI still draws the turn
// running is settle's working, not this class).
func (s *scen) staysDone(what string, end time.Time) {
	s.t.Helper()
	s.expect(what+" → done", end, fast, stateIs(session.Done))
	s.never(what+": never idle after it", end.Add(fast), end.Add(settleAfter), func(sh session.Shown, listed bool) bool {
		return !listed || sh.State == session.Idle
	})
}

func TestCodexStopThenTurnDone(t *testing.T) {
	s := startCodex(t, codexOpts{})
	pressed := s.codexDecline()
	if _, err := s.r.WaitScreen(pressed, codexStopped, turn); err != nil {
		t.Fatal(err)
	}
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	s.staysDone("the turn after the decline", s.turnOver(sent, "task_complete", codexTurnEnd))

	sent = s.submit(fakeresponses.Prompt(fakeresponses.Slow))
	if _, err := s.r.WaitScreen(sent, codexStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	s.expect("Esc while working → idle", s.turnOver(esc, "turn_aborted", nil), fast, stateIs(session.Idle))
	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Text))
	// The rollout alone: the first turn's "Worked for" is still on the screen.
	end := s.turnOver(sent, "task_complete", nil)
	if !codexStopped.MatchString(s.r.Screen()) {
		t.Logf("the stop marker scrolled off before the turn ended; screen:\n%s", driver.Excerpt(s.r.Screen(), 12))
	}
	s.staysDone("the turn after the Esc", end)
}

// codexPrompt submits a prompt and presses Enter again when no turn
// started within 3 s: right after an Esc, Codex 0.169.0 left a prompt typed
// 0.2 s after its composer came back in the composer, its Enter dropped.
func (s *scen) codexPrompt(text string) time.Time {
	s.t.Helper()
	sent := s.submit(text)
	for try := 0; try < 2; try++ {
		if _, err := s.r.WaitRollout(sent, func(e driver.RolloutEvent) bool { return e.Event == "task_started" }, 3*time.Second); err == nil {
			return sent
		}
		s.t.Logf("Codex did not take the prompt within 3 s: Enter again")
		s.press("Enter")
	}
	return sent
}

// stopThenTurnDone: the dialog rejected (deny keys), the next turn → done
// and stays done; Esc Esc while working → idle; the next turn → done.
func stopThenTurnDone(t *testing.T, c agentCLI, deny func(*agentScen, driver.Snap) time.Time) {
	s := startCLI(t, c)
	shown := s.dialogShown(fakellm.Shell)
	pressed := deny(s, shown)
	s.observed(pressed, "idle after the reject", c.turnEnd)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	s.staysDone("the turn after the reject", s.observed(sent, "the turn's end", c.turnEnd))

	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	stopped := s.interruptTwice(c.stopped, escAgain)
	s.expect("Esc while working → idle", stopped.At, time.Second, stateIs(session.Idle))
	s.observed(stopped.At.Add(-time.Second), "idle after the Esc", c.turnEnd)
	sent = s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the turn's end", c.turnEnd)
	if !c.stopped.MatchString(s.r.Screen()) {
		t.Logf("the stop marker scrolled off before the turn ended; screen:\n%s", driver.Excerpt(s.r.Screen(), 12))
	}
	s.staysDone("the turn after the Esc", end)
}

func TestOpenCodeStopThenTurnDone(t *testing.T) {
	stopThenTurnDone(t, openCodeCLI, func(s *agentScen, shown driver.Snap) time.Time {
		a, err := s.r.Answer(s.cli.dialog, shown.At, "Escape")
		if err != nil {
			s.t.Fatal(err)
		}
		s.expect("rejected with Esc → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
		return a.Pressed
	})
}

func TestKiloStopThenTurnDone(t *testing.T) {
	stopThenTurnDone(t, kiloCLI, func(s *agentScen, shown driver.Snap) time.Time {
		if _, err := s.r.Answer(s.cli.dialog, shown.At, "Escape"); err != nil {
			s.t.Fatal(err)
		}
		box, err := s.r.WaitScreen(shown.At, kiloRejectBox, cliTurn)
		if err != nil {
			s.t.Fatal(err)
		}
		a, err := s.r.Answer(kiloRejectBox, box.At, "Enter")
		if err != nil {
			s.t.Fatal(err)
		}
		s.expect("rejected → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
		return a.Pressed
	})
}
