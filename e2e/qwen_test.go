package e2e

// The real Qwen Code (driver.QwenVersion) against the scripted chat
// completions API (package fakellm, which answers with Qwen's
// run_shell_command tool), with Mew's hooks installed (`mew install
// --agent qwen`: Claude-format hooks in ~/.qwen/settings.json) and its tmux
// server as the screen source. The CLI's own moment of each change is the
// earliest of its screen and its own hooks (the driver's observer).

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var qwenCLI = agentCLI{
	name: driver.AgentQwen, version: driver.QwenVersion, find: driver.FindQwen,
	apiURL:    func(s *fakellm.Server) string { return s.OpenAIURL },
	dialog:    regexp.MustCompile(`Allow execution of`),
	apiError:  regexp.MustCompile(`✕ \[API Error`),
	stopped:   regexp.MustCompile(`Request cancelled`),
	stop:      []string{"Escape"},
	turnStart: func(h driver.HookSeen) bool { return h.Event == "UserPromptSubmit" },
	turnEnd:   func(h driver.HookSeen) bool { return h.Event == "Stop" || h.Event == "StopFailure" },
	// PermissionRequest runs 1.5–3.6 s before the dialog is drawn (census).
	dialogEvent: func(h driver.HookSeen) bool { return h.Event == "PermissionRequest" },
	quit:        []string{"C-c", "C-c"}, // "Press Ctrl+C again to exit."
	bin:         "qwen",
	denyEnd:     qwenIdle,
	errorEvent:  func(h driver.HookSeen) bool { return h.Event == "StopFailure" },
	exit:        qwenQuit,
	// No hook fires when Esc stops a turn (no Stop; idle_prompt only after
	// a denial): with the pane unread it stays working until the next one.
	hooksBlind: []string{"esc"},
	// ask_user_question's dialog (Enter picks the first choice).
	questionDialog: regexp.MustCompile(`↑/↓: Navigate \| Enter: Select \| Esc: Cancel`),
	// Its PermissionRequest announces the question too.
	questionEvent: func(h driver.HookSeen) bool { return h.Event == "PermissionRequest" },
}

// A plain turn → done; the dialog → waiting(permission), allowed →
// working → done; Ctrl-C twice → exited.
func TestQwenTurnsAndExit(t *testing.T) {
	c := qwenCLI
	s := startQwen(t)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the plain turn's end", c.turnEnd)
	s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, c.name, "its hooks")

	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	left := s.expect("allowed → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	end = s.observed(a.Pressed, "the turn's end", c.turnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	s.workingWhileAllowedRuns(left, a.Gone, end)

	s.expect("quit → exited", qwenQuit(s), exit, stateIs(session.Exited))
}

// qwenQuit presses Ctrl-C twice and returns when Qwen printed how to
// resume with the shell prompt gone.
func qwenQuit(s *agentScen) time.Time {
	t := s.t
	t.Helper()
	// The first Ctrl-C asks for a second one; one pressed while Qwen still
	// settles after a turn is taken by that: press until it asks.
	since := time.Now()
	for try := 0; ; try++ {
		s.press("C-c")
		if _, err := s.r.WaitScreen(since, qwenExitAsk, 5*time.Second); err == nil {
			break
		} else if try == 2 {
			t.Fatalf("Qwen never asked for a second Ctrl-C: %v", err)
		}
	}
	pressed := s.press("C-c")
	// Qwen runs SessionEnd, prints how to resume, asks the API for a summary
	// and then lingers: its processes ended 15 s later in one run, not
	// within a minute in others (also in the census). What the person sees
	// is the resume line with the shell prompt gone: that is the exit.
	bye, err := s.r.WaitScreen(pressed, qwenBye, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	return bye.At
}

// startQwen starts Qwen Code and, at the end, ends what it leaves running
// (its inner node outlives the pane).
func startQwen(t *testing.T) *agentScen {
	s := startCLI(t, qwenCLI)
	t.Cleanup(func() {
		if pids := s.r.KillLeftovers(); len(pids) > 0 {
			t.Logf("ended the processes Qwen Code left running: %v", pids)
		}
	})
	return s
}

var qwenBye = regexp.MustCompile(`(?m)^qwen --resume [0-9a-f-]{36}`)

// qwenIdle is Qwen's Notification after every turn, the only hook after a
// denial ends one.
func qwenIdle(h driver.HookSeen) bool {
	return h.Event == "Stop" || h.Event == "Notification" && h.Kind == "idle_prompt"
}

var qwenExitAsk = regexp.MustCompile(`Press Ctrl\+C again to exit`)

// The dialog denied with Esc → not waiting (Qwen fires no hook for it but
// PostToolBatch; the screen sees the dialog go); an API error Qwen does not
// retry (400) → failed (StopFailure); Esc while a turn runs → idle.
func TestQwenDenyAndError(t *testing.T) {
	c := qwenCLI
	s := startQwen(t)
	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Esc → not waiting", a.Gone, time.Second, listedAndNot(session.Waiting))
	// Qwen ends the turn after a denial with no Stop, only its idle_prompt
	// Notification; a prompt typed before then is queued.
	s.observed(a.Pressed, "idle after the denial", qwenIdle)

	sent := s.prompt(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	// StopFailure is fire-and-forget (Qwen does not wait for its hooks):
	// under three CPU hogs the driver's own shell hook was lost twice in a
	// row while Mew's came through, so the screen's error is the reference
	// when the driver saw no StopFailure.
	ref := snap.At
	if e, err := s.r.WaitHook(sent, func(h driver.HookSeen) bool { return h.Event == "StopFailure" }, 5*time.Second); err != nil {
		t.Logf("the driver's StopFailure hook did not report (%v): judged from the screen's error", err)
	} else if e.At.Before(ref) {
		ref = e.At
	}
	s.expect("API error → failed", ref, fast, stateIs(session.Failed))

	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	esc := s.press(c.stop[0])
	stopped, err := s.r.WaitScreen(esc, c.stopped, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	// Only the screen says the person stopped it (1 s: screen-only goal).
	s.expect("Esc while working → idle", stopped.At, time.Second, stateIs(session.Idle))
}
