package monitor_test

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/monitor/liveness/exitwatch"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

// An agent that exits is noticed by its exit event, not by the next
// re-check (30 s away once exits come by event; 1 s before): four agents
// killed one after another are each seen gone within 300 ms, which a
// one-second re-check would manage for all four about once in a hundred
// runs.
func TestWatchNoticesAnExitByEvent(t *testing.T) {
	if w, err := exitwatch.New(); err != nil {
		t.Skip("no exit events here: Watch re-checks every second")
	} else {
		w.Close()
	}
	e := newEnv(t)
	const n = 4
	var agents []*exec.Cmd
	for i := range n {
		agent := exec.Command("sleep", "600")
		if err := agent.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
		agents = append(agents, agent)
		p, err := proctree.Lean{}.Get(agent.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.opts.Store.Update(fmt.Sprintf("ex%d", i), time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook = &session.HookState{State: session.Working, Since: time.Now()}
			rec.Process = &session.Process{Pid: p.Pid, StartMs: p.StartMs}
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
	working := func(u monitor.Update) int {
		c := 0
		for _, s := range u.Sessions {
			if s.State == session.Working {
				c++
			}
		}
		return c
	}
	waitFor(t, updates, func(u monitor.Update) bool { return working(u) == n })
	for i, agent := range agents {
		time.Sleep(time.Duration(100+i*170) * time.Millisecond) // not in step with any tick
		killed := time.Now()
		agent.Process.Kill()
		agent.Wait()
		waitFor(t, updates, func(u monitor.Update) bool { return working(u) == n-1-i })
		if d := time.Since(killed); d > 300*time.Millisecond {
			t.Fatalf("agent %d: its exit was noticed after %v, as a re-check would", i, d)
		}
	}
}
