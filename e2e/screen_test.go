package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// The screen signal's goal: a prompt is waiting(permission) within 1 s of
// the dialog, an answered one not waiting within 1 s (the screen is read
// every 700 ms).
const screenGoal = time.Second

// byScreen: waiting for reason, decided by the screen source.
func byScreen(reason session.Reason) func(session.Shown, bool) bool {
	return func(sh session.Shown, listed bool) bool {
		return waitingFor(reason)(sh, listed) && strings.HasPrefix(sh.Source, "screen:")
	}
}

// Claude Code under `mew run`, no `mew install`: the wrapper's screen says
// waiting, answered, exited.
func TestScreenMewRunNoInstall(t *testing.T) {
	screenPermissionThenExit(start(t, opts{noInstall: true, run: true}))
}

// Claude Code in a plain tmux pane, no `mew install`: the same through the
// watcher's tmux sweeps.
func TestScreenTmuxPaneNoInstall(t *testing.T) {
	screenPermissionThenExit(start(t, opts{noInstall: true, watch: true}))
}

// screenPermissionThenExit: a permission prompt shown and answered, the turn
// done, /exit.
func screenPermissionThenExit(s *scen) {
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "")
	s.expect("prompt shown → waiting(permission) by the screen", shown.ref, screenGoal, byScreen(session.ReasonPermission))
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("prompt answered → not waiting", answered, screenGoal, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
	exitAt := s.submit("/exit")
	ref := exitAt
	if c, err := s.r.WaitRegistry(exitAt, driver.Gone, 5*time.Second); err == nil {
		ref = c.At
	}
	s.expect("/exit → exited or gone", ref, exit, exitedOrGone)
}

// Codex 0.169.0 under `mew run`, no hooks: its approval dialog (and the
// state sequence only the wrapper sees) is waiting(permission).
func TestScreenCodexMewRun(t *testing.T) {
	s := startCodex(t, codexOpts{noInstall: true, run: true})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission) by the screen", shown.At, screenGoal, byScreen(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approved → not waiting", a.Gone, screenGoal, listedAndNot(session.Waiting))
}

// Codex under `mew run`, no hooks: Esc on its approval dialog declines it,
// and the screen alone must end the wait (it once stayed waiting until the
// TUI quit), in the one-shot and the long-running monitor alike.
func TestScreenCodexMewRunDecline(t *testing.T) {
	s := startCodex(t, codexOpts{noInstall: true, run: true})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission) by the screen", shown.At, screenGoal, byScreen(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("declined with Esc → not waiting", a.Gone, screenGoal, listedAndNot(session.Waiting))
	s.expect("declined with Esc → idle", a.Gone, screenGoal, stateIs(session.Idle))
}
