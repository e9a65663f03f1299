package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/internal/testbin"
)

// monoNow is CLOCK_MONOTONIC, shared by every process on the machine.
func monoNow() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Nano()
}

// TestRelayWriter is the child of BenchmarkRunRelay (run only with
// MEW_RELAY_WRITER set): it writes a line with the monotonic time every
// 2 ms, then a bulk of text, then exits.
func TestRelayWriter(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("MEW_RELAY_WRITER"))
	if err != nil {
		t.Skip("the benchmark's child")
	}
	w := bufio.NewWriter(os.Stdout)
	for range n {
		fmt.Fprintf(w, "t=%d\n", monoNow())
		w.Flush()
		time.Sleep(2 * time.Millisecond)
	}
	line := strings.Repeat("x", 99) + "\n"
	start := monoNow()
	for range 100_000 { // 10 MB
		w.WriteString(line)
	}
	w.Flush()
	fmt.Fprintf(w, "bulk=%d\n", start)
	w.Flush()
	os.Exit(0)
}

// BenchmarkRunRelay measures what `mew run` adds on the way from the agent
// to the person's terminal: the same child writes timestamped lines (then
// 10 MB) straight on a terminal, and under `mew run`. It reports the
// latency of each line (median, p95) both ways, the difference, and the
// bulk throughput both ways.
//
//	go test ./cmd/mew -run '^$' -bench RunRelay -benchtime 1x
func BenchmarkRunRelay(b *testing.B) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		b.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	const lines = 500
	env := append(os.Environ(), "TERM=xterm-256color", "MEW_RELAY_WRITER="+strconv.Itoa(lines), "MEW_HOME="+b.TempDir(),
		"MEW_TMUX_SOCKET="+filepath.Join(b.TempDir(), "none"))
	child := []string{self, "-test.run=^TestRelayWriter$"}
	measure := func(argv []string) (lat []time.Duration, mbps float64) {
		m, s, err := pty.Open()
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		pty.Setsize(m, &pty.Winsize{Rows: 32, Cols: 120})
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
		cmd.SysProcAttr = &unix.SysProcAttr{Setsid: true, Setctty: true}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		s.Close()
		rd := bufio.NewReaderSize(m, 64<<10)
		var bytes int64
		for {
			l, err := rd.ReadString('\n')
			now := monoNow()
			bytes += int64(len(l))
			if v, ok := strings.CutPrefix(strings.TrimRight(l, "\r\n"), "t="); ok {
				if ts, err := strconv.ParseInt(v, 10, 64); err == nil {
					lat = append(lat, time.Duration(now-ts))
				}
			}
			if v, ok := strings.CutPrefix(strings.TrimRight(l, "\r\n"), "bulk="); ok {
				ts, _ := strconv.ParseInt(v, 10, 64)
				mbps = float64(bytes) / 1e6 / (float64(now-ts) / 1e9)
				break
			}
			if err != nil {
				b.Fatalf("%v: %v", argv, err)
			}
		}
		cmd.Wait()
		slices.Sort(lat)
		return lat, mbps
	}
	pct := func(d []time.Duration, p int) float64 { return float64(d[len(d)*p/100].Microseconds()) }
	b.ResetTimer()
	for range b.N {
		direct, directMBps := measure(child)
		wrapped, wrappedMBps := measure(append([]string{mew, "run", "--"}, child...))
		b.ReportMetric(pct(direct, 50), "direct-median-µs")
		b.ReportMetric(pct(direct, 95), "direct-p95-µs")
		b.ReportMetric(pct(wrapped, 50), "run-median-µs")
		b.ReportMetric(pct(wrapped, 95), "run-p95-µs")
		b.ReportMetric(pct(wrapped, 50)-pct(direct, 50), "added-median-µs")
		b.ReportMetric(directMBps, "direct-MB/s")
		b.ReportMetric(wrappedMBps, "run-MB/s")
	}
}
