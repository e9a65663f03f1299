package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkStatusWatchTmux is what `mew status --watch` costs next to a
// tmux server, in % of one core: mew, the tmux processes it runs (reaped,
// so counted in its children's time) and the tmux server together.
// "shells": 5 panes with an idle shell; "agents10" and "agents": 10 and 20
// panes each showing an agent's permission dialog (read every sweep; goal
// with 10: ≤ 0.5 %); "working10": 10 panes each drawing a turn running. rss-MiB is mew's resident set at the end (goal idle
// ≤ 16 MiB).
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchTmux -benchtime 1x
//
// MEW_BENCH_TMUX_SECONDS sets the window (default 60).
func BenchmarkStatusWatchTmux(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("tmux is not installed")
	}
	window := 60 * time.Second
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_TMUX_SECONDS")); err == nil && s > 0 {
		window = time.Duration(s) * time.Second
	}
	dir := b.TempDir()
	agent := filepath.Join(dir, "bin", "claude")
	os.MkdirAll(filepath.Dir(agent), 0o755)
	script := "#!/bin/sh\nprintf '\\033[2J\\033[H Do you want to proceed?\\r\\n ❯ 1. Yes\\r\\n   2. No\\r\\n\\r\\n Esc to cancel · Tab to amend'\nread _\n"
	if err := os.WriteFile(agent, []byte(script), 0o755); err != nil {
		b.Fatal(err)
	}
	// An agent drawing its turn running: a spinner frame every 100 ms.
	spinner := filepath.Join(dir, "spin", "claude")
	os.MkdirAll(filepath.Dir(spinner), 0o755)
	script = "#!/bin/bash\nwhile :; do for f in '·' '✢' '✳' '✶' '✻' '✽'; do printf '\\033[2J\\033[H> go\\r\\n\\r\\n%s Thinking… (esc to interrupt)\\r\\n' \"$f\"; sleep 0.1; done; done\n"
	if err := os.WriteFile(spinner, []byte(script), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		panes   int
		command string
		waiting int
		working int
	}{
		{"shells", 5, "sh", 0, 0},
		{"agents10", 10, agent, 10, 0},
		{"agents", 20, agent, 20, 0},
		// Turns running: swept every runningSweepEvery, not every 700 ms.
		{"working10", 10, spinner, 0, 10},
	} {
		b.Run(c.name, func(b *testing.B) {
			sock, err := os.MkdirTemp("", "mewb") // short: a socket path
			if err != nil {
				b.Fatal(err)
			}
			defer os.RemoveAll(sock)
			socket := filepath.Join(sock, "s")
			tmux := func(args ...string) string {
				out, err := exec.Command("tmux", append([]string{"-S", socket, "-f", "/dev/null"}, args...)...).Output()
				if err != nil {
					b.Fatalf("tmux %v: %v", args, err)
				}
				return strings.TrimSpace(string(out))
			}
			tmux("new-session", "-d", "-s", "work", "-x", "120", "-y", "32", c.command)
			defer exec.Command("tmux", "-S", socket, "kill-server").Run()
			for range c.panes - 1 {
				tmux("new-window", "-t", "work", c.command)
			}
			server, _ := strconv.Atoi(tmux("display-message", "-p", "#{pid}"))
			cl := newCLI(b)
			cl.env = append(cl.env, "MEW_TMUX_SOCKET="+socket)
			w := cl.watch(b)
			for waiting, working := 0, 0; waiting < c.waiting || working < c.working; {
				switch w.next(b, 10*time.Second)["state"] {
				case "waiting":
					waiting++
				case "working":
					working++
				}
			}
			time.Sleep(2 * time.Second) // start-up settles
			b.ResetTimer()
			for range b.N {
				before := cpuTicks(b, w.cmd.Process.Pid) + cpuTicks(b, server)
				time.Sleep(window)
				used := cpuTicks(b, w.cmd.Process.Pid) + cpuTicks(b, server) - before
				b.ReportMetric(float64(used)/clockTicks/window.Seconds()*100, "%cpu")
			}
			b.ReportMetric(float64(rssKiB(b, w.cmd.Process.Pid))/1024, "rss-MiB")
			// What is resident: the heap and stacks (anon) and the binary's
			// own pages (file).
			b.ReportMetric(float64(statusKiB(b, w.cmd.Process.Pid, "RssAnon:"))/1024, "anon-MiB")
			b.ReportMetric(float64(statusKiB(b, w.cmd.Process.Pid, "RssFile:"))/1024, "file-MiB")
		})
	}
}

// rssKiB is a process's resident set (VmRSS), in KiB.
func rssKiB(t testing.TB, pid int) int64 { return statusKiB(t, pid, "VmRSS:") }

// statusKiB is one of a process's /proc/<pid>/status sizes, in KiB.
func statusKiB(t testing.TB, pid int, field string) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	t.Fatal("no " + field)
	return 0
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times (100 on
// every Linux Mew runs on).
const clockTicks = 100

// cpuTicks is a process's CPU time and its reaped children's, in ticks.
func cpuTicks(t testing.TB, pid int) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // past the name
	var sum int64
	for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
		n, _ := strconv.ParseInt(f[i], 10, 64)
		sum += n
	}
	return sum
}
