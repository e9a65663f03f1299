package monitor_test

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// The long-running monitor ends a hand-back hold when its time is over,
// with nothing else changing: the session held working for the turn
// Claude Code starts after a background subagent is done, when no turn
// comes, is done then (and not a minute later at the next re-check).
func TestWatchEndsAHandBackHoldOnTime(t *testing.T) {
	e := newEnv(t)
	e.opts.Sources = nil
	st := e.opts.Store
	proc := session.Process{Pid: e.self.Pid, StartMs: e.self.StartMs}
	handBack := time.Now().Add(-300 * time.Millisecond)
	_, err := st.Update("handing", time.Second, func(rec *session.Record, _ bool) bool {
		rec.Agent = session.AgentClaude
		rec.Hook = &session.HookState{State: session.Working, Since: handBack.Add(-time.Minute), At: handBack,
			StopSeen: true, HandBack: handBack, Source: "hook:SubagentStop"}
		p := proc
		rec.Process = &p
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	// Each update's state, with when it came: working while the hold
	// runs (a loaded machine may send the first update after it), then
	// done, within a second of its end.
	waitFor(t, updates, func(u monitor.Update) bool {
		if len(u.Sessions) != 1 || u.Sessions[0].ID != "handing" {
			t.Fatalf("sessions: %+v", u.Sessions)
		}
		at, state := time.Since(handBack), u.Sessions[0].State
		switch {
		case state == session.Working && at < session.HandBackHold+time.Second:
			return false
		case state == session.Done && at >= session.HandBackHold:
			return true
		}
		t.Fatalf("%v after the hand-back: %s (hold %v)", at, state, session.HandBackHold)
		return false
	})
}
