package board

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// replayHooks feeds a recorded real run's hook events through the reducer
// (no registry: the hooks-only case, where the CLI's flashes show), and
// updates a board at 8 Hz. It returns the alerts and the moments the panel
// opened.
func replayHooks(t *testing.T, run string, cfg Config) (alerts []string, opened []float64) {
	t.Helper()
	r, err := fixture.LoadRun(fixture.Root("2.1.328") + "/" + run)
	if err != nil {
		t.Fatal(err)
	}
	b := New(cfg)
	var h *session.HookState
	next := 0
	end := r.Events[len(r.Events)-1].T + 2
	for tick := 0; float64(tick)/TickRate <= end; tick++ {
		sec := float64(tick) / TickRate
		now := t0.Add(time.Duration(sec * float64(time.Second)))
		for ; next < len(r.Events) && r.Events[next].T <= sec; next++ {
			e := r.Events[next]
			if e.Source != "hook" {
				continue
			}
			ev, err := reducer.Parse(e.Doc)
			if err != nil {
				t.Fatal(err)
			}
			var prev session.HookState
			if h != nil {
				prev = *h
			}
			at := t0.Add(time.Duration(e.T * float64(time.Second)))
			st := reducer.Apply(prev, ev, at)
			h = &st
		}
		var sessions []session.Shown
		if h != nil {
			sessions = append(sessions, combine.At(session.Record{ID: r.SessionID, Hook: h}, combine.Alive, now))
		}
		v := b.Update(sessions, now)
		for _, a := range v.Alerts {
			alerts = append(alerts, fmt.Sprintf("%s/%s", a.State, a.Reason))
		}
		if v.Opened {
			opened = append(opened, math.Round(sec*1000)/1000)
		}
	}
	return alerts, opened
}

// A background subagent's stop used to flash done for 0.07-0.18 s before
// Claude Code re-engaged by itself. The hooks now hold that hand-back
// working (session.HandBackHold), so nothing opens or rings, even with no
// settle time at all.
func TestReplaySubagentFlickerIsQuiet(t *testing.T) {
	for name, cfg := range map[string]Config{"settle": DefaultConfig(), "no settle": func() Config {
		c := DefaultConfig()
		c.WaitingSettle, c.DoneSettle = 0, 0
		return c
	}()} {
		if alerts, opened := replayHooks(t, "subagent", cfg); len(alerts) != 0 || len(opened) != 0 {
			t.Errorf("%s: the hand-back alerted %v, opened at %v; want nothing", name, alerts, opened)
		}
	}
}

// Real prompts still ring, once each, and open the panel promptly.
func TestReplayRealNeedsRing(t *testing.T) {
	cases := []struct {
		run    string
		alerts []string
		opened []float64 // seconds into the run
	}{
		// PermissionRequest at 5.573, +0.3 s settle → the 5.875 tick; the
		// panel hides while the approved command runs; Stop at 6.608, +1 s
		// settle → 7.625.
		{"permission", []string{"waiting/permission", "done/"}, []float64{5.875, 7.625}},
		// AskUserQuestion's PreToolUse at 4.273 is the wait; Stop at 6.727.
		{"ask", []string{"waiting/question", "done/"}, []float64{4.625, 7.75}},
		{"question-exit", []string{"done/"}, []float64{3.625}},
		{"interrupt", nil, nil}, // Esc fires no hook: hooks alone never see the need
	}
	for _, c := range cases {
		t.Run(c.run, func(t *testing.T) {
			alerts, opened := replayHooks(t, c.run, DefaultConfig())
			if !slices.Equal(alerts, c.alerts) || !slices.Equal(opened, c.opened) {
				t.Errorf("alerts %v opened at %v; want %v at %v", alerts, opened, c.alerts, c.opened)
			}
		})
	}
}
