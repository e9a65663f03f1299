package e2e

// The real Continue CLI (driver.ContinueVersion, `cn --config …`) against
// the scripted chat completions API (package fakellm, which answers with
// Continue's Bash tool). Continue fires no hooks and Mew installs nothing
// for it: its screen in tmux is all Mew has (goal 1 s, where only the
// screen knows; 2 s for the exit, which its process says). Not driven: an
// error Continue retries to the end (429, 502–504, a typed server_error:
// ten attempts with growing pauses, 1–2 minutes of working on its screen,
// as in the census); one it does not retry fails at once
// (continue_conform_test.go).

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var (
	// In the dialog's box at the left edge: a reply quoting it is drawn
	// two columns in.
	cnDialog  = regexp.MustCompile(`(?m)^│\s+Would you like to continue\?`)
	cnWorking = regexp.MustCompile(`\( \d+s • esc to interrupt \)`)
	cnDenied  = regexp.MustCompile(`Permission denied by user`)
	cnExitAsk = regexp.MustCompile(`ctrl\+c to exit`)
	// Escape on a running turn: the person stopped it, idle, not done.
	cnInterrupted = regexp.MustCompile(`Interrupted by user - Press enter to continue`)
)

// startContinue starts cn in a pane, Mew reading the run's tmux server.
func startContinue(t *testing.T) *scen { return startContinueWith(t, nil) }

// startContinueWith is startContinue with the run's options changed by opts
// (nil: none).
func startContinueWith(t *testing.T, opts func(*driver.Options)) *scen {
	t.Parallel()
	b := needCLIBinaries(t, "Continue CLI", driver.ContinueVersion, driver.FindContinue, driver.ErrNoCLI, nil)
	api, err := fakellm.Start(fakellm.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	o := driver.Options{Agent: driver.AgentContinue, Program: b.program, APIURL: api.OpenAIURL, Dir: t.TempDir(), Mew: b.mew}
	if opts != nil {
		opts(&o)
	}
	r, err := driver.Launch(o)
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		dumpScreens(t, r)
		t.Logf("rows per agent: %s", r.RowCounts())
		if err := r.CheckRows(); err != nil {
			t.Error(err)
		}
		d := driver.SampleDurations(r.Samples())
		t.Logf("mew status --json: %d samples, median %v, p95 %v", d.N, d.Median.Round(time.Millisecond), d.P95.Round(time.Millisecond))
		recordDurations(t.Name(), d)
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			for _, l := range api.Log() {
				r.TL.Addf(l.At, "api", "%s %d %s", l.Path, l.Status, l.Why)
			}
			t.Logf("timeline:\n%s", r.TL.String())
		}
	})
	if err := r.WaitReady(2 * ready); err != nil {
		t.Fatal(err)
	}
	return &scen{t: t, r: r}
}

// cnTurnEnded is Continue's own moment a turn ended: the first screen
// showing reply with the working line gone.
func (s *scen) cnTurnEnded(since time.Time, reply *regexp.Regexp) time.Time {
	return s.replyWithoutWorking(since, reply, cnWorking)
}

// replyWithoutWorking is the first screen after since that shows reply with
// the CLI's working line gone: a screen-only CLI's own moment a turn ended.
func (s *scen) replyWithoutWorking(since time.Time, reply, working *regexp.Regexp) time.Time {
	s.t.Helper()
	snap, err := s.r.WaitScreenFunc(since, "the reply with no working line", func(text string) bool {
		return reply.MatchString(text) && !working.MatchString(text)
	}, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	return snap.At
}

// cnDialogShown submits the shell scenario (its answer after the command
// trickled: seen running) and returns when the dialog is on the screen.
func (s *scen) cnDialogShown() driver.Snap { return s.shellDialogShown(cnDialog) }

// shellDialogShown submits the shell scenario (its answer after the command
// trickled: seen running) and returns when dialog is on the screen, which
// Mew must show as waiting(permission) from the screen alone.
func (s *scen) shellDialogShown(dialog *regexp.Regexp) driver.Snap {
	s.t.Helper()
	sent := s.submit(fakellm.Prompt(fakellm.ShellBrief))
	shown, err := s.r.WaitScreen(sent, dialog, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("permission dialog → waiting(permission)", shown.At, screenOnly, waitingFor(session.ReasonPermission))
	return shown
}

var cnReply, cnDone = regexp.MustCompile(`Hello from the fake model\.`), regexp.MustCompile(`(?m)^\s+Done\.`)

// screenOnlyCLI is a CLI Mew knows by its screen and process alone, for
// the scenario they share (turnsAndExit).
type screenOnlyCLI struct {
	agent                        string
	working, reply, done, dialog *regexp.Regexp   // a running turn; the plain turn's and the shell turn's last words; the dialog
	quit                         func() time.Time // makes it exit; when its pane's shell was back
}

// turnsAndExit: a plain turn → done; the dialog → waiting(permission),
// allowed (Enter on its highlighted first option) → not waiting, the
// command ran, done; quit → exited. One row throughout (the screen and the
// process).
func (s *scen) turnsAndExit(c screenOnlyCLI) {
	t := s.t
	t.Helper()
	// Brief: the stand-in answers at once, and a turn shorter than the
	// 700 ms between two reads of the screen is never seen running.
	sent := s.submit(fakellm.Prompt(fakellm.Brief))
	if _, err := s.r.WaitScreen(sent, c.working, cliTurn); err != nil {
		t.Fatal(err)
	}
	end := s.replyWithoutWorking(sent, c.reply, c.working)
	res := s.expect("plain turn ended → done", end, screenOnly, stateIs(session.Done))
	if res.Shown.Agent != c.agent {
		t.Errorf("agent %q, want %s", res.Shown.Agent, c.agent)
	}

	shown := s.shellDialogShown(c.dialog)
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("allowed → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	end = s.replyWithoutWorking(a.Pressed, c.done, c.working)
	s.expect("turn ended → done", end, screenOnly, stateIs(session.Done))
	if _, err := os.Stat(filepath.Join(s.r.Project, "made-by-agent")); err != nil {
		t.Errorf("the allowed %q did not run: %v", fakellm.ShellCommand, err)
	}

	s.expect("quit → exited", c.quit(), exit, stateIs(session.Exited))
}

func TestContinueTurnsAndExit(t *testing.T) {
	s := startContinue(t)
	s.turnsAndExit(screenOnlyCLI{agent: session.AgentContinue, working: cnWorking, reply: cnReply, done: cnDone,
		dialog: cnDialog, quit: s.cnQuit})
}

// cnQuit presses Ctrl-C, and again once Continue says "ctrl+c to exit"
// (the second press counts only within a moment), until its pane's shell
// is back.
func (s *scen) cnQuit() time.Time {
	s.t.Helper()
	deadline := time.Now().Add(gone)
	for time.Now().Before(deadline) {
		at := s.press("C-c")
		if _, err := s.r.WaitScreen(at, cnExitAsk, 5*time.Second); err != nil {
			continue
		}
		s.press("C-c")
		if at, ok := s.paneDeadBy(time.Now().Add(10 * time.Second)); ok {
			return at
		}
	}
	s.t.Fatalf("Continue did not exit within %v of Ctrl-C Ctrl-C", gone)
	return time.Time{}
}

// deniedWithEscape answers the dialog shown with Escape: not waiting at
// once, then the CLI's denial on its screen (denied); from the moment
// settled gives (after the denial's) to now, never waiting again.
func (s *scen) deniedWithEscape(dialog, denied *regexp.Regexp, shown driver.Snap, settled func(denied time.Time) time.Time) {
	t := s.t
	t.Helper()
	a, err := s.r.Answer(dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Escape → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	d, err := s.r.WaitScreen(a.Pressed, denied, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	if bad := s.r.MewDuring(settled(d.At).Add(screenOnly), time.Now(), func(sh session.Shown, listed bool) bool {
		return listed && sh.State == session.Waiting
	}); len(bad) > 0 {
		sh, _ := bad[0].Find(s.r.SessionID())
		t.Errorf("after the denial Mew showed %s", driver.ShownString(sh))
	}
}

// The dialog denied with Escape ("Permission denied by user") → not
// waiting; the turn ends there → done or idle, never waiting again; a
// prompt → working, Escape while it runs ("Interrupted by user") → idle.
func TestContinueDenyAndEsc(t *testing.T) {
	s := startContinue(t)
	s.deniedWithEscape(cnDialog, cnDenied, s.cnDialogShown(), func(denied time.Time) time.Time { return denied })

	sent := s.submit(fakellm.Prompt(fakellm.Slow))
	working, err := s.r.WaitScreen(sent, cnWorking, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("prompt sent → working", working.At, screenOnly, stateIs(session.Working))
	// Continue draws a reply only once it is whole: Escape while the
	// spinner runs.
	esc := s.press("Escape")
	stopped, err := s.r.WaitScreen(esc, cnInterrupted, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("Esc while working → idle", stopped.At, screenOnly, stateIs(session.Idle))
}
