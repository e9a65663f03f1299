package monitor

import (
	"os/exec"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

// An exited session still listed costs nothing: its dead pid is not
// watched again after every pass (exitwatch would report it gone at once,
// which runs another pass, which would add it again: ~17 passes a second
// per exited session, measured). A live one beside it is followed.
func TestFollowSkipsTheDead(t *testing.T) {
	e := newExitEvents()
	defer e.close()
	if e.w == nil {
		t.Skip("no exit events here")
	}
	start := func() (*exec.Cmd, session.Record) {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		p, err := proctree.Lean{}.Get(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		return cmd, session.Record{ID: "s" + p.Name, Process: &session.Process{Pid: p.Pid, StartMs: p.StartMs}}
	}
	victim, dead := start()
	dead.ID = "dead"
	_, alive := start()
	alive.ID = "alive"
	victim.Process.Kill()
	victim.Wait()
	live := newLiveCache(Options{Procs: proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs})
	isDead := func(r session.Record) bool { return live.check(r) == combine.Dead }
	if !isDead(dead) || isDead(alive) {
		t.Fatalf("liveness: dead %v, alive %v", live.check(dead), live.check(alive))
	}
	for range 5 { // five passes
		e.follow([]*session.Record{&dead, &alive}, isDead)
	}
	if n := e.w.Watching(); n != 1 {
		t.Fatalf("watching %d processes, want only the live one", n)
	}
	select {
	case pid := <-e.exits():
		t.Fatalf("pid %d reported gone: the dead one was watched again", pid)
	case <-time.After(100 * time.Millisecond):
	}
}
