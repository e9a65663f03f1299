package combine

import (
	"testing"

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
