package combine

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// monoHook and monoReg put an observation on the monotonic clock too (as
// the hook and the monitor do), t seconds from base.
func monoHook(state session.State, reason session.Reason, t float64) *session.HookState {
	h := hook(state, reason, t)
	h.AtMono = int64(t * 1e9)
	return h
}

func monoReg(status, waitingFor string, t float64) *session.RegistryState {
	r := reg(status, waitingFor, t)
	r.AtMono = int64(t * 1e9)
	return r
}

func vanished(r *session.RegistryState, t float64) *session.RegistryState {
	r.Gone, r.At = true, at(t) // as registry.Vanish leaves it
	return r
}

// A report that a newer report or the screen already overruled never comes
// back when a source goes away (issue 22: in 4 of 21 window closes Claude
// Code's stale hook state showed again for 41-119 ms after its registry
// file went, once a false waiting(permission) for a prompt dismissed with
// Esc).
func TestCombineOverruledReportStaysOverruled(t *testing.T) {
	stopped := monoHook(session.Done, "", 5)
	stopped.StopSeen = true
	blockedThenGone := scr(session.ScreenBlocked, 3)
	blockedThenGone.Background, blockedThenGone.Pid = true, 0
	cases := []struct {
		name   string
		h      *session.HookState
		r      *session.RegistryState
		sc     *session.ScreenState
		state  session.State
		source string
	}{
		{"Esc on a prompt, then the registry file goes: still idle", monoHook(session.Waiting, session.ReasonPermission, 3), vanished(monoReg("idle", "", 4), 9), nil, session.Idle, "registry:idle"},
		{"the file goes after a Stop the registry confirmed: still done", stopped, vanished(monoReg("idle", "", 5.2), 9), nil, session.Done, "registry:idle"},
		{"a hook newer than the gone registry's status decides", monoHook(session.Working, "", 6), vanished(monoReg("idle", "", 4), 9), nil, session.Working, "hook:X"},
		{"a gone busy does not beat a newer Stop", stopped, vanished(monoReg("busy", "", 4), 9), nil, session.Done, "hook:X"},
		{"without monotonic times the hooks decide, as before", hook(session.Waiting, session.ReasonPermission, 3), vanished(reg("idle", "", 4), 9), nil, session.Waiting, "hook:X"},
		{"screen only: a prompt drawn before the shell came back waits on nobody", nil, nil, blockedThenGone, session.Exited, "screen:background"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s1", Hook: c.h, Registry: c.r, Screen: c.sc}, Alive)
			if got.State != c.state || got.Source != c.source {
				t.Fatalf("got %s(%s) by %s, want %s by %s", got.State, got.Reason, got.Source, c.state, c.source)
			}
		})
	}
}

// A screen that contradicts an end-of-turn report decides before anything
// is shown: until the screen is read session.ScreenSettle after the
// report, the turn it last saw running still runs (issue 22: Gemini CLI's Esc while working showed
// done for 0.6 s before idle, an API error done for 1.3 s before failed).
func TestCombineEndOfTurnWaitsForTheScreen(t *testing.T) {
	stopped := hook(session.Done, "", 5)
	stopped.StopSeen = true
	readBefore := scr(session.ScreenWorking, 3) // read at 3.7
	readAfter := scr(session.ScreenWorking, 4.5)
	readAfter.At = at(5.1)
	readLate := scr(session.ScreenWorking, 4.5)
	readLate.At = at(5).Add(session.ScreenSettle)
	runScreen := scr(session.ScreenWorking, 3)
	runScreen.Via = "run"
	shellBack := scr(session.ScreenWorking, 3)
	shellBack.Background = true
	cancelled := scr(session.ScreenIdle, 5.05)
	cancelled.Interrupted, cancelled.At = true, at(5.1)
	failedScreen := scr(session.ScreenFailed, 5.05)
	failedScreen.At = at(5.1)
	idleBefore := scr(session.ScreenIdle, 3)
	hooksAfterError := scr(session.ScreenWorking, 4)
	hooksAfterError.ErrorShown = true
	cases := []struct {
		name   string
		h      *session.HookState
		r      *session.RegistryState
		sc     *session.ScreenState
		state  session.State
		source string
	}{
		{"not read since the turn ended: still working", stopped, nil, readBefore, session.Working, "screen:gemini/working#1"},
		{"the registry's idle, newer, waits the same", stopped, monoReg("idle", "", 5.2), readBefore, session.Working, "screen:gemini/working#1"},
		{"read since, the turn not yet drawn as ended: still working", stopped, nil, readAfter, session.Working, "screen:gemini/working#1"},
		{"read the settle time after, still drawn running: the report decides", stopped, nil, readLate, session.Done, "hook:X"},
		{"read since, the person stopped it: idle", stopped, nil, cancelled, session.Idle, "screen:gemini/idle#1"},
		{"read since, an error: failed", stopped, nil, failedScreen, session.Failed, "screen:gemini/failed#1"},
		{"a screen already idle does not wait", stopped, nil, idleBefore, session.Done, "hook:X"},
		{"the error drawn while the end-of-turn hooks run: failed", stopped, nil, hooksAfterError, session.Failed, "screen:gemini/failed"},
		{"an error drawn while a turn is reported running changes nothing", hook(session.Working, "", 5), nil, hooksAfterError, session.Working, "hook:X"},
		{"a mew run screen (not read on news) does not wait", stopped, nil, runScreen, session.Done, "hook:X"},
		{"a screen whose shell is back does not wait", stopped, nil, shellBack, session.Exited, "screen:background"},
		{"a working report is not held", hook(session.Working, "", 5), nil, readBefore, session.Working, "hook:X"},
		{"stopped on screen after the turn was reported running: idle", hook(session.Working, "", 5), nil, cancelled, session.Idle, "screen:gemini/idle#1"},
		{"a turn reported running after the stop on screen: working", hook(session.Working, "", 5.2), nil, cancelled, session.Working, "hook:X"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s1", Agent: "gemini", Hook: c.h, Registry: c.r, Screen: c.sc}, Alive)
			if got.State != c.state || got.Source != c.source {
				t.Fatalf("got %s by %s, want %s by %s", got.State, got.Source, c.state, c.source)
			}
		})
	}
}

// An agent whose rules give a longer settle time (Gemini CLI: 1 s, as it
// draws an Esc or an error only after all its AfterAgent hooks ran) keeps a
// turn its screen still draws running working that much longer; past it,
// the report decides as with the default.
func TestCombineEndOfTurnWaitsTheAgentsSettle(t *testing.T) {
	stopped := hook(session.Done, "", 5)
	stopped.StopSeen = true
	readAt := func(after time.Duration, settle time.Duration) *session.ScreenState {
		sc := scr(session.ScreenWorking, 4.5)
		sc.At, sc.ReportSettle = at(5).Add(after), settle
		return sc
	}
	cases := []struct {
		name  string
		sc    *session.ScreenState
		state session.State
	}{
		{"default, read 0.6 s after: the report decides", readAt(600*time.Millisecond, 0), session.Done},
		{"1 s settle, read 0.6 s after: still working", readAt(600*time.Millisecond, time.Second), session.Working},
		{"1 s settle, read 0.99 s after: still working", readAt(990*time.Millisecond, time.Second), session.Working},
		{"1 s settle, read 1 s after: the report decides", readAt(time.Second, time.Second), session.Done},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s1", Agent: "gemini", Hook: stopped, Screen: c.sc}, Alive)
			if got.State != c.state {
				t.Fatalf("got %s by %s, want %s", got.State, got.Source, c.state)
			}
		})
	}
}

// An agent whose own reports tell a stop and an error from a finished turn
// (ReportFinal: OpenCode's and Kilo's plugin, Qwen Code's Stop and
// StopFailure) is not held while its screen still draws the turn running:
// the done shows at its report, not 0.5 s later. Its screen still
// corrects what it shows once drawn.
func TestCombineFinalReportDoesNotWaitForTheScreen(t *testing.T) {
	ended := hook(session.Done, "", 5)
	ended.StopSeen = true
	running := scr(session.ScreenWorking, 3)
	running.Agent, running.Rule = "opencode", "opencode/working#1"
	held := Combine(session.Record{ID: "s1", Agent: "opencode", Hook: ended, Screen: running}, Alive)
	if held.State != session.Working {
		t.Fatalf("without report_final: %s by %s, want working (the screen is waited on)", held.State, held.Source)
	}
	final := *running
	final.ReportFinal = true
	got := Combine(session.Record{ID: "s1", Agent: "opencode", Hook: ended, Screen: &final}, Alive)
	if got.State != session.Done || got.Source != "hook:X" {
		t.Errorf("report_final, the screen still drawn running: %s by %s, want done by hook:X", got.State, got.Source)
	}
	failedScreen := scr(session.ScreenFailed, 5.05)
	failedScreen.At, failedScreen.ReportFinal = at(5.1), true
	if got := Combine(session.Record{ID: "s1", Agent: "opencode", Hook: ended, Screen: failedScreen}, Alive); got.State != session.Failed {
		t.Errorf("report_final, an error drawn since: %s by %s, want failed", got.State, got.Source)
	}
}

// Copilot CLI's log says a turn ended for good (hook.start of agentStop,
// only for a turn that succeeded): its screen, which draws the turn
// running until its end-of-turn hooks ran, is not waited for. A log done
// that is not final (assistant.turn_end) still waits.
func TestCombineFinalDoneDoesNotWaitForTheScreen(t *testing.T) {
	stopped := hook(session.Done, "", 5)
	stopped.StopSeen = true
	readBefore := scr(session.ScreenWorking, 3)
	final := &session.LogState{State: session.Done, Source: "events:hook.start:agentStop", Since: at(4.9), At: at(4.9), Final: true}
	notFinal := &session.LogState{State: session.Done, Source: "events:assistant.turn_end", Since: at(4.9), At: at(4.9)}
	newTurn := &session.LogState{State: session.Working, Source: "events:user.message", Since: at(4.8), At: at(4.8), Final: true}
	for _, c := range []struct {
		name   string
		lg     *session.LogState
		state  session.State
		source string
	}{
		{"final: done at once", final, session.Done, "hook:X"},
		{"not final: waits", notFinal, session.Working, "screen:gemini/working#1"},
		{"final but not done: waits", newTurn, session.Working, "screen:gemini/working#1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s1", Agent: "copilot", Hook: stopped, Log: c.lg, Screen: readBefore}, Alive)
			if got.State != c.state || got.Source != c.source {
				t.Fatalf("got %s by %s, want %s by %s", got.State, got.Source, c.state, c.source)
			}
		})
	}
	// Without hooks, the log's own final done.
	got := Combine(session.Record{ID: "s1", Agent: "copilot", Log: final, Screen: readBefore}, Alive)
	if got.State != session.Done {
		t.Fatalf("log alone: %s by %s, want done", got.State, got.Source)
	}
}

// Registry only: an idle after a turn is done unless the transcript says
// the person stopped the turn (Esc on a prompt, Esc while streaming).
func TestCombineRegistryIdleStoppedByThePerson(t *testing.T) {
	finished := reg("idle", "", 5)
	finished.TurnSeen = true
	stopped := reg("idle", "", 5)
	stopped.TurnSeen, stopped.Interrupted = true, true
	for _, c := range []struct {
		name  string
		r     *session.RegistryState
		state session.State
	}{
		{"a finished turn: done", finished, session.Done},
		{"a turn the person stopped: idle", stopped, session.Idle},
	} {
		if got := Combine(session.Record{ID: "s1", Registry: c.r}, Alive); got.State != c.state || got.Source != "registry:idle" {
			t.Errorf("%s: got %s by %s, want %s", c.name, got.State, got.Source, c.state)
		}
	}
}

// One footer frame right after a dialog closes is not idle: an approved
// dialog draws the bare input box a frame before the work it started.
func TestCombineFrameAfterADialogIsNotIdle(t *testing.T) {
	perm := hook(session.Waiting, session.ReasonPermission, 5)
	fresh := func(readAfter float64) *session.ScreenState {
		s := scr(session.ScreenIdle, 6)
		s.Unblocked, s.At = at(6), at(6+readAfter)
		return s
	}
	dismissed := fresh(0.1)
	dismissed.Interrupted = true
	run := fresh(0.1)
	run.Via = "run"
	cases := []struct {
		name   string
		sc     *session.ScreenState
		state  session.State
		source string
	}{
		{"the first frame after the dialog: working", fresh(0.1), session.Working, "screen:gemini/answered"},
		{"still the bare box the settle time later: idle", fresh(0.6), session.Idle, "screen:gemini/idle#1"},
		{"a dialog dismissed says so: idle", dismissed, session.Idle, "screen:gemini/idle#1"},
		{"a mew run screen (not re-sent): idle", run, session.Idle, "screen:gemini/idle#1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s1", Agent: "gemini", Hook: perm, Screen: c.sc}, Alive)
			if got.State != c.state || got.Source != c.source {
				t.Fatalf("got %s by %s, want %s by %s", got.State, got.Source, c.state, c.source)
			}
		})
	}
}
