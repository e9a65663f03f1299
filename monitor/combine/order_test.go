package combine

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Registry readings and hook events come from different processes; their
// order decides which wins (rule 5). Each carries its wall-clock time and,
// where the machine has one, a reading of the shared monotonic clock
// (AtMono, nanoseconds). A wall clock stepped back an hour between a
// registry reading and a newer hook event must not make the reading look
// newer.
func TestOrderSurvivesAClockStep(t *testing.T) {
	const s = int64(time.Second)
	mono := func(sec float64) int64 { return int64(sec * float64(s)) }
	step := -time.Hour
	cases := []struct {
		name   string
		h      *session.HookState
		r      *session.RegistryState
		state  session.State
		source string
	}{
		{
			// The dialog was answered after the clock went back: the
			// hook's PostToolUse (working) is newer than the registry's
			// waiting, though its wall time is an hour earlier.
			"clock stepped back: the newer hook event wins",
			stamped(hook(session.Working, "", 5), step, mono(1005)),
			stampedReg(reg("waiting", "permission prompt", 0), 0, mono(1000)),
			session.Working, "hook:X",
		},
		{
			"clock stepped back: a newer registry reading wins",
			stamped(hook(session.Waiting, session.ReasonPermission, 0), 0, mono(1000)),
			stampedReg(reg("busy", "", 5), step, mono(1005)),
			session.Working, "registry:busy",
		},
		{
			"no step: the same order as the wall clocks (hook newer)",
			stamped(hook(session.Working, "", 6), 0, mono(1006)),
			stampedReg(reg("waiting", "permission prompt", 5.2), 0, mono(1005.2)),
			session.Working, "hook:X",
		},
		{
			"no step: the same order as the wall clocks (registry newer)",
			stamped(hook(session.Working, "", 5), 0, mono(1005)),
			stampedReg(reg("waiting", "permission prompt", 5.2), 0, mono(1005.2)),
			session.Waiting, "registry:waiting",
		},
		{
			"a reading without a monotonic time falls back to wall clocks",
			stamped(hook(session.Working, "", 5), step, mono(1005)),
			stampedReg(reg("waiting", "permission prompt", 0), 0, 0),
			session.Waiting, "registry:waiting",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Combine(session.Record{ID: "s", Hook: c.h, Registry: c.r}, Alive)
			if got.State != c.state || got.Source != c.source {
				t.Fatalf("%s by %s, want %s by %s", got.State, got.Source, c.state, c.source)
			}
		})
	}
}

func stamped(h *session.HookState, shift time.Duration, mono int64) *session.HookState {
	h.At, h.Since, h.AtMono = h.At.Add(shift), h.Since.Add(shift), mono
	return h
}

func stampedReg(r *session.RegistryState, shift time.Duration, mono int64) *session.RegistryState {
	r.At, r.AtMono = r.At.Add(shift), mono
	return r
}
