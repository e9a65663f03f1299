package liveness

import (
	"os"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

type table map[int]proctree.Proc

func (t table) Get(pid int) (proctree.Proc, error) {
	if p, ok := t[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

const started = int64(1_796_000_000_000)

func TestCheck(t *testing.T) {
	procs := table{
		100: {Pid: 100, StartMs: started},
		200: {Pid: 200, StartMs: started + 3_600_000}, // pid reused an hour later
	}
	ticks := func(n uint64) (int64, bool) { return started + int64(n)*10, true }
	startedAt := time.UnixMilli(started + 500)
	cases := []struct {
		name string
		rec  session.Record
		c    Checker
		want State
	}{
		{"hook record, same process", session.Record{Process: &session.Process{Pid: 100, StartMs: started + 300}}, Checker{Procs: procs}, Alive},
		{"hook record, pid gone", session.Record{Process: &session.Process{Pid: 999, StartMs: started}}, Checker{Procs: procs}, Dead},
		{"hook record, pid reused", session.Record{Process: &session.Process{Pid: 200, StartMs: started}}, Checker{Procs: procs}, Dead},
		{"nothing to check", session.Record{}, Checker{Procs: procs}, Unknown},
		{"registry procStart in ticks matches", session.Record{Registry: &session.RegistryState{Pid: 100, ProcStart: "0"}}, Checker{Procs: procs, TicksToMs: ticks}, Alive},
		{"registry procStart of another process", session.Record{Registry: &session.RegistryState{Pid: 100, ProcStart: "99999"}}, Checker{Procs: procs, TicksToMs: ticks}, Dead},
		{"registry pid reused after startedAt", session.Record{Registry: &session.RegistryState{Pid: 200, StartedAt: startedAt}}, Checker{Procs: procs}, Dead},
		{"registry process started before the session", session.Record{Registry: &session.RegistryState{Pid: 100, StartedAt: startedAt}}, Checker{Procs: procs}, Alive},
		{"registry pid gone", session.Record{Registry: &session.RegistryState{Pid: 300}}, Checker{Procs: procs}, Dead},
		{"registry preferred over a stale hook pid", session.Record{Process: &session.Process{Pid: 999}, Registry: &session.RegistryState{Pid: 100, StartedAt: startedAt}}, Checker{Procs: procs}, Alive},
	}
	for _, c := range cases {
		if got := c.c.Check(c.rec); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// The real table agrees with itself: this test process is alive under its
// recorded start time and dead under another.
func TestRealProcess(t *testing.T) {
	self, err := proctree.Lean{}.Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	c := Checker{Procs: proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs}
	if got := c.Check(session.Record{Process: &session.Process{Pid: self.Pid, StartMs: self.StartMs}}); got != Alive {
		t.Fatalf("self: %v", got)
	}
	if got := c.Check(session.Record{Process: &session.Process{Pid: self.Pid, StartMs: self.StartMs - 60_000}}); got != Dead {
		t.Fatalf("self with another start time: %v", got)
	}
}
