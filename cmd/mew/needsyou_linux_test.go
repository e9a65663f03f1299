package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/testbin"
)

// inotifyLoopSource is the floor a watcher is measured against: a program
// that does nothing but wait on inotify for a session file to be renamed
// into the store's folder and print its name.
const inotifyLoopSource = `package main

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

func main() {
	fd, err := syscall.InotifyInit()
	if err != nil {
		os.Exit(1)
	}
	if _, err := syscall.InotifyAddWatch(fd, os.Args[1], syscall.IN_MOVED_TO|syscall.IN_CLOSE_WRITE); err != nil {
		os.Exit(1)
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			os.Exit(1)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			if strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
				os.Stdout.WriteString(name + "\n")
			}
		}
	}
}
`

// stampedLines reads a process's stdout line by line, each with when it
// was read.
type stampedLines chan stampedLine

type stampedLine struct {
	text string
	at   time.Time
}

func startStamped(t testing.TB, cmd *exec.Cmd) stampedLines {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(stampedLines, 4096)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- stampedLine{sc.Text(), time.Now()}
		}
		close(lines)
	}()
	return lines
}

// until returns the first line after now that ok accepts.
func (l stampedLines) until(t testing.TB, ok func(string) bool) time.Time {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m, open := <-l:
			if !open {
				t.Fatal("the program ended")
			}
			if ok(m.text) {
				return m.at
			}
		case <-deadline:
			t.Fatal("no line within 10 s")
		}
	}
}

// BenchmarkStatusWatchNeedsYou is hook start → "needs you" in a running
// `mew status --watch --json`, next to a trivial inotify loop watching the
// same folder (the floor: the same hook run, the same event seen), both
// measured from the same hook's start in the same run. Two cases:
//
//   - back to back: PreToolUse, then PermissionRequest a few ms after it
//     exits, as Claude Code sends them (the second change comes within
//     100 ms of the first one's pass);
//   - lone: Stop (done) after a quiet moment.
//
// It reports each p50 and its ratio to the loop's (goal ≤ 1.5×).
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchNeedsYou -benchtime 100x
func BenchmarkStatusWatchNeedsYou(b *testing.B) {
	loopBin, err := testbin.BuildSource("inotifyloop", inotifyLoopSource)
	if err != nil {
		b.Fatal(err)
	}
	c := newCLI(b)
	dir := filepath.Join(c.home, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	loop := startStamped(b, exec.Command(loopBin, dir))
	watchCmd := exec.Command(c.mew, "status", "--watch", "--json")
	watchCmd.Env = c.env
	watch := startStamped(b, watchCmd)

	const id = "needs-you-1"
	var mu sync.Mutex
	hook := func(event string) time.Time {
		mu.Lock()
		defer mu.Unlock()
		cmd := exec.Command("/bin/sh", "-c", `"$0"`, c.hook)
		cmd.Stdin = strings.NewReader(`{"session_id":"` + id + `","hook_event_name":"` + event + `","cwd":"/src/p","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"toolu_1"}`)
		cmd.Env = c.env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			b.Fatalf("hook %s: %v %q", event, err, out)
		}
		return start
	}
	state := func(want string) func(string) bool {
		return func(line string) bool {
			var m map[string]any
			return json.Unmarshal([]byte(line), &m) == nil && m["id"] == id && m["state"] == want
		}
	}
	file := func(line string) bool { return line == id+".json" }
	// quiet lets the last pass be more than the watcher's busy window ago.
	quiet := func() { time.Sleep(200 * time.Millisecond) }

	hook("UserPromptSubmit")
	watch.until(b, state("working"))
	loop.until(b, file)
	gap := 3 * time.Millisecond
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_GAP_MS")); err == nil && s >= 0 {
		gap = time.Duration(s) * time.Millisecond
	}
	var b2bMew, b2bLoop, loneMew, loneLoop []time.Duration
	b.ResetTimer()
	for range b.N {
		quiet()
		// Back to back.
		hook("PreToolUse")
		time.Sleep(gap)
		t0 := hook("PermissionRequest")
		seen := watch.until(b, state("waiting"))
		loop.until(b, file) // PreToolUse's
		b2bLoop = append(b2bLoop, loop.until(b, file).Sub(t0))
		b2bMew = append(b2bMew, seen.Sub(t0))
		quiet()
		hook("PostToolUse")
		watch.until(b, state("working"))
		loop.until(b, file)
		quiet()
		// Lone.
		t0 = hook("Stop")
		seen = watch.until(b, state("done"))
		loneLoop = append(loneLoop, loop.until(b, file).Sub(t0))
		loneMew = append(loneMew, seen.Sub(t0))
		hook("UserPromptSubmit")
		watch.until(b, state("working"))
		loop.until(b, file)
	}
	b.StopTimer()
	p50 := func(d []time.Duration) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[len(s)/2]
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(p50(b2bMew)), "b2b-p50-ms")
	b.ReportMetric(ms(p50(b2bLoop)), "b2b-loop-p50-ms")
	b.ReportMetric(float64(p50(b2bMew))/float64(p50(b2bLoop)), "b2b-ratio")
	b.ReportMetric(ms(p50(loneMew)), "lone-p50-ms")
	b.ReportMetric(ms(p50(loneLoop)), "lone-loop-p50-ms")
	b.ReportMetric(float64(p50(loneMew))/float64(p50(loneLoop)), "lone-ratio")
}
