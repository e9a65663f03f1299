package e2e

// One row per agent process (issue 22): the same agent seen by several
// sources is one session, from start to exit, in the one-shot `mew status`
// and in the long-running watcher alike (every run checks that no sample
// lists one agent process twice: driver.Run.CheckRows). These scenarios
// add the modes nobody tuned Mew to: `mew run -- <agent>` inside a tmux
// pane (the wrapper's screen, the pane's screen, the hooks or plugin),
// `codex resume --last`, and a Codex turn of several tool calls.

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// listedThroughout: from the first sample that listed the session under
// its own id (the agent names it at its first event: Gemini CLI and
// OpenCode only at the first prompt) until to, every sample of both kinds
// listed it: one row, never none.
func (s *scen) listedThroughout(what string, from, to time.Time) {
	s.t.Helper()
	id := s.r.SessionID()
	for _, mode := range []string{driver.ModeOnce, driver.ModeWatch} {
		for _, smp := range s.r.SamplesOf(mode) {
			if _, ok := smp.Find(id); ok && id != "" {
				if smp.Start.After(from) {
					from = smp.Start
				}
				break
			}
		}
	}
	bad := s.r.MewDuring(from, to, func(_ session.Shown, listed bool) bool { return !listed })
	for i, b := range bad {
		if i == 3 {
			s.t.Errorf("%s: … %d samples more", what, len(bad)-3)
			break
		}
		s.t.Errorf("%s: the %s sample at %s did not list the session (%s)", what, b.Mode, s.r.TL.Rel(b.End), driver.RowsString(b))
	}
	recordWindow(s.t.Name(), what, len(bad) == 0, s.r.SamplesIn(from, to))
}

// Claude Code, full stack (hooks, registry, the pane read), under `mew run`
// in a tmux pane: one row, the hooks' session, from start to exit; and the
// long-running monitor as current as the one-shot one while the wrapper's
// screen (joined to the hooks' session) changes: the dialog answered → not
// waiting, then done (the watcher once kept waiting for seconds).
func TestMewRunInTmuxClaude(t *testing.T) {
	s := start(t, opts{run: true})
	ready := time.Now()
	sent := s.submit(fakeapi.Prompt(fakeapi.Text))
	s.expect("turn ended → done", s.turnEnd(sent), fast, stateIs(session.Done))
	sent = s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("prompt answered → not waiting", answered, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
	exitAt := s.submit("/exit")
	ref := exitAt
	if c, err := s.r.WaitRegistry(exitAt, driver.Gone, 5*time.Second); err == nil {
		ref = c.At
	}
	s.listedThroughout("one row from start to exit", ready, exitAt)
	s.expect("/exit → exited or gone", ref, exit, exitedOrGone)
}

// Codex (hooks, rollout, the pane read) under `mew run` in a tmux pane.
func TestMewRunInTmuxCodex(t *testing.T) {
	s := startCodex(t, codexOpts{run: true})
	ready := time.Now()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	s.expect("turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	quit := s.submit("/quit")
	s.listedThroughout("one row from start to exit", ready, quit)
	s.expect("/quit → exited", s.paneDead(5*time.Second), exit, exitedOrGone)
}

func TestMewRunInTmuxOpenCode(t *testing.T) { mewRunInTmux(t, openCodeCLI) }
func TestMewRunInTmuxGemini(t *testing.T)   { mewRunInTmux(t, geminiCLI) }

// mewRunInTmux: OpenCode or Gemini CLI (plugin or hooks, the pane read)
// under `mew run` in a tmux pane: a turn → done, quit → exited, one row.
func mewRunInTmux(t *testing.T, c agentCLI) {
	s := startCLIWrapped(t, c, []string{needCLI(t, c).mew, "run", "--"})
	ready := time.Now()
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the turn's end", c.turnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	quit := time.Now()
	// Gemini CLI under load sometimes takes the first Ctrl-C as "cancel"
	// and wants two more: the keys again until it goes.
	for try := 0; try < 3 && !s.quitAndWait(c.quit, 3*time.Second); try++ {
		s.t.Logf("the CLI is still there 3 s after %v: again", c.quit)
	}
	s.listedThroughout("one row from start to exit", ready, quit)
	gone := s.cliGone(15 * time.Second)
	s.expect("quit → exited", gone, exit, exitedOrGone)
}

// `codex resume --last` after a turn: the resumed TUI shows the same
// session, one row; never exited while it is open; exited ≤ 2 s after it
// quits.
func TestCodexResumeLast(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	s.expect("turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	id := s.r.SessionID()
	s.submit("/quit")
	s.expect("/quit → exited", s.paneDead(5*time.Second), exit, exitedOrGone)

	typed, err := s.r.TypeCommand(s.r.Opts.Codex, "resume", "--last")
	if err != nil {
		t.Fatal(err)
	}
	open, err := s.r.WaitScreen(typed, codexInputBox, ready)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.r.SessionID(); got != id {
		t.Logf("the resumed TUI writes session %s (was %s)", got, id)
	}
	reopened := s.expect("resumed TUI open → not exited", open.At, exit, listedAndNot(session.Exited))
	from := open.At.Add(max(reopened.Hi, 100*time.Millisecond)) // from when Mew first showed it open
	sent = s.submit(fakeresponses.Prompt(fakeresponses.Text))
	// The resumed TUI may still be loading its session and drop the Enter.
	for try := 0; try < 2; try++ {
		if _, err := s.r.WaitRollout(sent, func(e driver.RolloutEvent) bool { return e.Event == "task_started" }, 5*time.Second); err == nil {
			break
		}
		t.Logf("the resumed TUI did not start the turn within 5 s: Enter again")
		s.press("Enter")
	}
	// The rollout's task_complete, not the screen: the resumed TUI shows the
	// earlier turn's "Worked for" line from the start.
	s.expect("resumed turn ended → done", s.turnOver(sent, "task_complete", nil), fast, stateIs(session.Done))
	quit := s.submit("/quit")
	bad := s.r.MewDuring(from, quit, func(sh session.Shown, listed bool) bool { return !listed || sh.State == session.Exited })
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("at %s (the resumed TUI open) the %s sample showed %s", s.r.TL.Rel(b.End), b.Mode, driver.ShownString(sh))
	}
	recordWindow(t.Name(), "never exited while the resumed TUI is open", len(bad) == 0, s.r.SamplesIn(from, quit))
	s.expect("resumed TUI /quit → exited", s.paneDead(5*time.Second), exit, exitedOrGone)
}

// A Codex turn of several tool calls, then /quit: done, then exited
// within 2 s (it once stayed done to the end of the run).
func TestCodexToolCallsThenQuit(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Tools))
	s.expect("turn of several tool calls ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	s.submit("/quit")
	s.expect("/quit → exited", s.paneDead(5*time.Second), exit, exitedOrGone)
}

// codexInputBox is Codex's input line: the TUI is up.
var codexInputBox = regexp.MustCompile(`(?m)^› `)

// cliGone waits for the CLI to exit (the shell is back in its pane) and
// returns when it was seen gone; the screen says why not.
func (s *scen) cliGone(timeout time.Duration) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if st, err := s.r.Tmux.Pane(); err == nil && st.Dead {
			return time.Now()
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("the CLI did not exit within %v; screen:\n%s", timeout, driver.Excerpt(s.r.Screen(), 14))
	return time.Time{}
}

// quitAndWait presses keys (400 ms apart) and reports whether the CLI
// exited within wait.
func (s *scen) quitAndWait(keys []string, wait time.Duration) bool {
	for _, k := range keys {
		s.press(k)
		time.Sleep(400 * time.Millisecond)
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, err := s.r.Tmux.Pane(); err == nil && st.Dead {
			return true
		}
	}
	return false
}
