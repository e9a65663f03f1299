package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// BenchmarkStatusWatchIdle is what `mew status --watch` costs while nothing
// happens: 20 sessions whose agents run (sleep processes) and do nothing,
// the watcher's CPU time over a quiet window, in % of one core (goal
// ≤ 0.05 %). Then one agent is killed: exit-ms is the time until its
// "exited" (or "forgotten") line.
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchIdle -benchtime 1x
//
// MEW_BENCH_IDLE_SECONDS sets the quiet window (default 120: it spans two of
// the watch's 60-second re-checks, so they are counted). The CPU time is
// the sum of /proc/<pid>/task/*/schedstat (nanoseconds, every thread).
func BenchmarkStatusWatchIdle(b *testing.B) {
	window := 120 * time.Second
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_IDLE_SECONDS")); err == nil && s > 0 {
		window = time.Duration(s) * time.Second
	}
	c := newCLI(b)
	st := store.Store{Home: c.home, Fold: hookbin.Fold}
	var agents []*exec.Cmd
	for i := range 20 {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		agents = append(agents, cmd)
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		p, err := proctree.Lean{}.Get(cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		id := "idle-" + strconv.Itoa(i)
		_, err = st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook = &session.HookState{State: session.Working, Since: time.Now(), Cwd: "/tmp/p" + strconv.Itoa(i)}
			rec.Process = &session.Process{Pid: p.Pid, StartMs: p.StartMs, Name: "sleep"}
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	w := c.watch(b)
	for range 20 {
		w.next(b, 10*time.Second)
	}
	time.Sleep(2 * time.Second) // start-up settles
	b.ResetTimer()
	for range b.N {
		before := cpuNanos(b, w.cmd.Process.Pid)
		time.Sleep(window)
		used := cpuNanos(b, w.cmd.Process.Pid) - before
		b.ReportMetric(float64(used)/float64(window.Nanoseconds())*100, "%cpu")
	}
	b.StopTimer()

	victim := agents[7]
	start := time.Now()
	victim.Process.Signal(syscall.SIGKILL)
	victim.Wait() // reaped, as an agent's parent would
	for {
		m := w.next(b, 10*time.Second)
		if m["id"] == "idle-7" && (m["state"] == "exited" || m["state"] == "forgotten") {
			break
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "exit-ms")
}

// cpuNanos is a process's CPU time so far, every thread, in nanoseconds.
func cpuNanos(t testing.TB, pid int) int64 {
	t.Helper()
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no schedstat for %d: %v", pid, err)
	}
	var sum int64
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that ended
		}
		if n, err := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64); err == nil {
			sum += n
		}
	}
	return sum
}

// BenchmarkStatusWatchIdleExited is what exited sessions cost while they
// stay listed (30 minutes): two `mew status --watch` side by side over the
// same quiet window, each with 4 idle live sessions, one of them with 8
// sessions whose agents have exited besides. Goal: exited/none ≤ 1.2
// (an exited session must cost nothing; it once cost 0.2 % of a core
// each, its dead pid re-watched ~17 times a second).
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchIdleExited -benchtime 1x
func BenchmarkStatusWatchIdleExited(b *testing.B) {
	window := 120 * time.Second
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_IDLE_SECONDS")); err == nil && s > 0 {
		window = time.Duration(s) * time.Second
	}
	agent := func(b *testing.B, st store.Store, id string, exit bool) {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		p, err := proctree.Lean{}.Get(cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		_, err = st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook = &session.HookState{State: session.Done, Since: time.Now(), Cwd: "/tmp/" + id}
			rec.Process = &session.Process{Pid: p.Pid, StartMs: p.StartMs, Name: "sleep"}
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
		if exit {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	start := func(exited int) *watcher {
		c := newCLI(b)
		st := store.Store{Home: c.home, Fold: hookbin.Fold}
		for i := range 4 {
			agent(b, st, "live-"+strconv.Itoa(i), false)
		}
		for i := range exited {
			agent(b, st, "exited-"+strconv.Itoa(i), true)
		}
		w := c.watch(b)
		for range 4 + exited {
			w.next(b, 10*time.Second)
		}
		go func() { // keep reading: a full pipe would stall the watcher
			for range w.lines {
			}
		}()
		return w
	}
	none, exited := start(0), start(8)
	time.Sleep(2 * time.Second) // start-up settles
	b.ResetTimer()
	for range b.N {
		n0, e0 := cpuNanos(b, none.cmd.Process.Pid), cpuNanos(b, exited.cmd.Process.Pid)
		time.Sleep(window)
		n := float64(cpuNanos(b, none.cmd.Process.Pid) - n0)
		e := float64(cpuNanos(b, exited.cmd.Process.Pid) - e0)
		b.ReportMetric(n/float64(window.Nanoseconds())*100, "%cpu-none")
		b.ReportMetric(e/float64(window.Nanoseconds())*100, "%cpu-8exited")
		b.ReportMetric(e/max(n, 1), "ratio")
	}
}
