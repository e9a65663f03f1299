package monitor_test

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// The long-running monitor follows a `mew run` screen joined to the hooks'
// session of the same process: each change of the run:<pid> file shows
// under the hooks' session at once, not at the next re-check (a minute
// away where exits come by event). It once kept a dialog answered seconds
// before as waiting, because only the joined session's own file counted.
func TestWatchFollowsAJoinedRunScreen(t *testing.T) {
	e := newEnv(t)
	e.opts.Sources = nil
	st := e.opts.Store
	proc := session.Process{Pid: e.self.Pid, StartMs: e.self.StartMs}
	since := time.Now().Add(-time.Minute)
	_, err := st.Update("hooked", time.Second, func(rec *session.Record, _ bool) bool {
		rec.Agent = session.AgentClaude
		rec.Hook = &session.HookState{State: session.Working, Since: since}
		p := proc
		rec.Process = &p
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	screen := func(state string, unblocked time.Time) {
		t.Helper()
		now := time.Now()
		_, err := st.Update("run:1", time.Second, func(rec *session.Record, _ bool) bool {
			rec.Agent = session.AgentClaude
			rec.Screen = &session.ScreenState{Agent: "claude", State: state, Reason: session.ReasonPermission,
				Since: now, At: now, Unblocked: unblocked, Via: "run", Pid: proc.Pid, StartMs: proc.StartMs}
			p := proc
			rec.Process = &p
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	only := func(want session.State) func(monitor.Update) bool {
		return func(u monitor.Update) bool {
			return len(u.Sessions) == 1 && u.Sessions[0].ID == "hooked" && u.Sessions[0].State == want
		}
	}
	waitFor(t, updates, only(session.Working))
	for range 3 {
		screen(session.ScreenBlocked, time.Time{})
		waitFor(t, updates, only(session.Waiting))
		screen(session.ScreenWorking, time.Now())
		waitFor(t, updates, only(session.Working))
	}
}
