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
	st := store.Store{Home: c.home}
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
