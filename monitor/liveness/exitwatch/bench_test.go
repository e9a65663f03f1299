package exitwatch_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
)

// BenchmarkExitToReport is the time from SIGKILL to the exit on the
// channel (process start-up is not timed).
func BenchmarkExitToReport(b *testing.B) {
	w := newWatcher(b)
	var total time.Duration
	for range b.N {
		b.StopTimer()
		pid := orphan(b)
		if err := w.Add(pid); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		syscall.Kill(pid, syscall.SIGKILL)
		if got := <-w.Exits(); got != pid {
			b.Fatalf("got %d, want %d", got, pid)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs/exit")
}

// BenchmarkIdle20 is what watching 20 running processes costs while none
// exits: this process's CPU time over one idle second, by event and by
// re-reading each pid once a second (what the monitor's tick did).
func BenchmarkIdle20(b *testing.B) {
	pids := make([]int, 20)
	for i := range pids {
		pids[i] = orphan(b)
	}
	w := newWatcher(b)
	for _, pid := range pids {
		if err := w.Add(pid); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var events, polling time.Duration
	for range b.N {
		c := cpu()
		time.Sleep(time.Second)
		events += cpu() - c

		c = cpu()
		deadline := time.Now().Add(time.Second)
		for _, pid := range pids {
			proctree.SameProcess(proctree.Lean{}, pid, 0)
		}
		time.Sleep(time.Until(deadline))
		polling += cpu() - c
	}
	n := float64(b.N)
	b.ReportMetric(float64(events.Nanoseconds())/n/1e7, "event-%cpu")
	b.ReportMetric(float64(polling.Nanoseconds())/n/1e7, "poll-%cpu")
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
