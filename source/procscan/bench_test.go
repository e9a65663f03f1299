package procscan

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
)

// BenchmarkPoll measures one poll of the real process table with 200 more
// processes than the machine runs (sleeping children), after the first
// poll has sniffed them all: the steady state of Watch (on Linux, polls
// that read only new and young processes' stat, and every 15th that reads
// all of them). It reports the CPU
// share of one core at the 2 s poll (goal: well under 0.1 %). Run with
// `make bench-procscan`; -benchtime 200x or so.
func BenchmarkPoll(b *testing.B) {
	var kids []*exec.Cmd
	for range 200 {
		c := exec.Command("sleep", "600")
		if err := c.Start(); err != nil {
			b.Skip("cannot start sleep(1):", err)
		}
		kids = append(kids, c)
	}
	defer func() {
		for _, c := range kids {
			c.Process.Kill()
			c.Wait()
		}
	}()
	book := rules.Embedded()
	s := New(func() (*rules.Book, []error) { return book, nil })
	// Polls run back to back, on a clock that moves DefaultPoll each, as
	// Watch's would.
	clock := time.Now()
	s.clock = func() time.Time { clock = clock.Add(DefaultPoll); return clock }
	ctx := context.Background()
	if _, err := s.Scan(ctx); err != nil {
		b.Fatal(err)
	}
	procs, _ := readTable()
	b.ResetTimer()
	start := cpuTime()
	t0 := time.Now()
	for range b.N {
		if _, err := s.Scan(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - start
	wall := time.Since(t0)
	b.StopTimer()
	perPoll := cpu / time.Duration(b.N)
	b.ReportMetric(float64(len(procs)), "processes")
	b.ReportMetric(float64(perPoll.Microseconds()), "cpu-µs/poll")
	b.ReportMetric(100*perPoll.Seconds()/DefaultPoll.Seconds(), "%core@2s")
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "procscan: %d processes, %v CPU per poll (%v wall), %.4f %% of a core at one poll per %v\n",
			len(procs), perPoll, wall/time.Duration(b.N), 100*perPoll.Seconds()/DefaultPoll.Seconds(), DefaultPoll)
	}
}
