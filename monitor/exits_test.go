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

// An agent that exits is noticed by its exit event, not by a re-check:
// where exits come by event the first re-check is SlowTick (a minute) after
// Watch starts, so four agents killed one after another and each seen gone
// before then were seen by their events. (Where a pid cannot be watched,
// Watch re-checks every second instead: the test makes sure it can.) How
// long each took is reported, not judged: it must hold on a loaded machine.
func TestWatchNoticesAnExitByEvent(t *testing.T) {
	probe, err := exitwatch.New()
	if err != nil {
		t.Skip("no exit events here: Watch re-checks every second")
	}
	defer probe.Close()
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
		if err := probe.Add(agent.Process.Pid); err != nil {
			t.Skipf("the exit of pid %d cannot come by event (%v): Watch re-checks every second", agent.Process.Pid, err)
		}
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
	started := time.Now()
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
	var took []time.Duration
	for i, agent := range agents {
		killed := time.Now()
		agent.Process.Kill()
		agent.Wait()
		waitFor(t, updates, func(u monitor.Update) bool { return working(u) == n-1-i })
		took = append(took, time.Since(killed).Round(time.Millisecond))
	}
	t.Logf("exits seen %v after each kill", took)
	if all := time.Since(started); all >= monitor.SlowTick {
		t.Fatalf("the exits took %v in all, past the first re-check (%v): they may not have come by event", all, monitor.SlowTick)
	}
}
