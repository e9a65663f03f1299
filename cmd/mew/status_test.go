package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

type cli struct {
	mew, hook string
	env       []string
	home      string
	regDir    string
}

func newCLI(t testing.TB) *cli {
	t.Helper()
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	home, cfg := t.TempDir(), t.TempDir()
	c := &cli{mew: mew, hook: hook, home: home, regDir: filepath.Join(cfg, "sessions")}
	c.env = append(os.Environ(), "MEW_HOME="+home, "CLAUDE_CONFIG_DIR="+cfg)
	return c
}

func (c *cli) run(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(c.mew, args...)
	cmd.Env = c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func (c *cli) hookEvent(t testing.TB, payload string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `"$0"`, c.hook)
	cmd.Stdin = strings.NewReader(payload)
	cmd.Env = c.env
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("hook: %v %q", err, out)
	}
}

func TestStatusTableAndJSON(t *testing.T) {
	c := newCLI(t)
	out, _, code := c.run(t, "status")
	if code != 0 || !strings.Contains(out, "No sessions") {
		t.Fatalf("empty: %d %q", code, out)
	}
	out, _, _ = c.run(t, "status", "--json")
	if strings.TrimSpace(out) != "[]" {
		t.Fatalf("empty JSON: %q", out)
	}
	id := "5c6a12cb-ee2c-4bae-aa26-82bb12872711"
	for _, p := range []string{
		`{"hook_event_name":"SessionStart","source":"startup","cwd":"/Users/dev/shop"}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"add the cart page"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_use_id":"t1"}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm test"}}`,
	} {
		c.hookEvent(t, `{"session_id":"`+id+`",`+p[1:])
	}
	out, _, _ = c.run(t, "status")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "STATE") {
		t.Fatalf("table: %q", out)
	}
	for _, want := range []string{"5c6a12cb", "waiting", "permission", "shop", "add the cart page"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("row %q lacks %q", lines[1], want)
		}
	}
	out, _, _ = c.run(t, "status", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("JSON: %v %q", err, out)
	}
	s := list[0]
	for _, key := range []string{"id", "agent", "state", "reason", "source", "cwd", "pid", "title", "since", "last_message"} {
		if _, ok := s[key]; !ok {
			t.Errorf("JSON lacks %q: %v", key, s)
		}
	}
	if s["id"] != id || s["agent"] != "claude" || s["state"] != "waiting" || s["reason"] != "permission" || s["source"] != "hook:PermissionRequest" || s["pid"].(float64) != float64(os.Getpid()) {
		t.Fatalf("JSON values: %v", s)
	}
	if _, err := time.Parse(time.RFC3339, s["since"].(string)); err != nil {
		t.Fatalf("since: %v", err)
	}
	c.hookEvent(t, `{"session_id":"`+id+`","hook_event_name":"SessionEnd","reason":"other"}`)
	out, _, _ = c.run(t, "status", "--json")
	if !strings.Contains(out, `"state": "exited"`) {
		t.Fatalf("after SessionEnd: %s", out)
	}
	out, _, _ = c.run(t, "status", "--json", "--forget-after", "1ns")
	if strings.TrimSpace(out) != "[]" {
		t.Fatalf("exited session not forgotten: %s", out)
	}
}

func TestStatusRejectsBadArgs(t *testing.T) {
	c := newCLI(t)
	if _, errOut, code := c.run(t, "status", "--bogus"); code != 2 || !strings.Contains(errOut, "bogus") {
		t.Fatalf("%d %q", code, errOut)
	}
	if _, errOut, code := c.run(t, "nonsense"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("%d %q", code, errOut)
	}
}

// watcher runs `mew status --watch --json` and hands out its lines.
type watcher struct {
	cmd   *exec.Cmd
	lines chan map[string]any
}

func (c *cli) watch(t testing.TB) *watcher {
	t.Helper()
	cmd := exec.Command(c.mew, "status", "--watch", "--json")
	cmd.Env = c.env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watcher{cmd: cmd, lines: make(chan map[string]any, 1024)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				w.lines <- m
			}
		}
		close(w.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return w
}

func (w *watcher) next(t testing.TB, timeout time.Duration) map[string]any {
	t.Helper()
	select {
	case m, ok := <-w.lines:
		if !ok {
			t.Fatal("watch ended")
		}
		return m
	case <-time.After(timeout):
		t.Fatal("no line from mew status --watch")
	}
	return nil
}

// writeRegistry writes a Claude Code registry document for a session this
// process stands in for.
func (c *cli) writeRegistry(t testing.TB, id, status string) {
	t.Helper()
	self, _ := proctree.Lean{}.Get(os.Getpid())
	os.MkdirAll(c.regDir, 0o700)
	doc := fmt.Sprintf(`{"pid":%d,"sessionId":%q,"procStart":"%d","cwd":"/p/x","status":%q,"statusUpdatedAt":%d}`,
		self.Pid, id, self.StartTicks, status, time.Now().UnixMilli())
	if err := store.WriteFileAtomic(filepath.Join(c.regDir, strconv.Itoa(self.Pid)+".json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestStatusWatchPrintsEachChange(t *testing.T) {
	c := newCLI(t)
	w := c.watch(t)
	c.writeRegistry(t, "watch-1", "busy")
	if m := w.next(t, 10*time.Second); m["id"] != "watch-1" || m["state"] != "working" {
		t.Fatalf("first line: %v", m)
	}
	c.writeRegistry(t, "watch-1", "waiting")
	if m := w.next(t, 10*time.Second); m["state"] != "waiting" {
		t.Fatalf("second line: %v", m)
	}
	// Rewriting the same state prints nothing; the next change does.
	c.writeRegistry(t, "watch-1", "waiting")
	c.writeRegistry(t, "watch-1", "busy")
	if m := w.next(t, 10*time.Second); m["state"] != "working" {
		t.Fatalf("third line: %v", m)
	}
}

// BenchmarkStatusWatchLatency: a registry file written → the change printed
// by `mew status --watch --json`; median and p95 over b.N changes (goal:
// p95 ≤ 100 ms).
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchLatency -benchtime 200x
func BenchmarkStatusWatchLatency(b *testing.B) {
	c := newCLI(b)
	w := c.watch(b)
	c.writeRegistry(b, "bench-1", "busy")
	w.next(b, 10*time.Second)
	states := []struct{ status, shown string }{{"waiting", "waiting"}, {"busy", "working"}}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		s := states[i%2]
		start := time.Now()
		c.writeRegistry(b, "bench-1", s.status)
		for {
			m := w.next(b, 10*time.Second)
			if m["state"] == s.shown {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// The table shortens ids, never to one another row shares: three
// processes 1210-1212 were each "proc:121".
func TestTableIDsAreUnique(t *testing.T) {
	now := time.Now()
	var shown []session.Shown
	for _, id := range []string{"proc:1210", "proc:1211", "proc:1212", "proc:99", "8f0c2a1e-5b7d-4c3a-9e21-0d6f4b8a7c11", "8f0c2a1f-0000-4c3a-9e21-0d6f4b8a7c11", "b7e4d2c0-1111-4c3a-9e21-0d6f4b8a7c11"} {
		shown = append(shown, session.Shown{ID: id, State: session.Working, Since: now, Cwd: "/src/x"})
	}
	var b strings.Builder
	printTable(&b, shown, now)
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")[1:]
	seen := map[string]bool{}
	for i, row := range rows {
		id := strings.Fields(row)[0]
		if seen[id] || !strings.HasPrefix(shown[i].ID, id) {
			t.Errorf("row %d shows id %q for %s: not a prefix only it has", i, id, shown[i].ID)
		}
		seen[id] = true
	}
	if id := strings.Fields(rows[6])[0]; id != "b7e4d2c0" {
		t.Errorf("an id no other shares is shortened to %q, want 8 characters", id)
	}
}

// The table names each session's agent (a column) and never cuts a short
// id into what reads as another ("proc:8832" is not "proc:883").
func TestStatusTableNamesTheAgentAndWholeIDs(t *testing.T) {
	now := time.Now()
	shown := []session.Shown{
		{ID: "proc:8832", Agent: "codex", State: session.Idle, Since: now, Cwd: "/src/proj", Tmux: "%2"},
		{ID: "5f0c2a1e-9d7b-4c1a-8e3f-2b6d9a0c4e71", Agent: "claude", AgentVersion: "2.1.3", State: session.Working, Since: now, Cwd: "/src/proj", Tmux: "%1"},
	}
	var out strings.Builder
	printTable(&out, shown, now)
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "AGENT") {
		t.Fatalf("header %q", lines[0])
	}
	if !strings.Contains(lines[1], "proc:8832 ") || !strings.Contains(lines[1], "codex") {
		t.Errorf("row %q: want the whole id and the agent", lines[1])
	}
	if !strings.HasPrefix(lines[2], "5f0c2a1e ") || !strings.Contains(lines[2], "claude 2.1.3") {
		t.Errorf("row %q: want the uuid's prefix and the agent with its version", lines[2])
	}
	for _, c := range []struct{ id, want string }{
		{"proc:8832", "proc:8832"}, {"tmux:%12", "tmux:%12"}, {"run:4242", "run:4242"},
		{"5f0c2a1e-9d7b-4c1a-8e3f-2b6d9a0c4e71", "5f0c2a1e"},
		{"codex:019a3f0c-2b6d-7e1a-9f00-aa11bb22cc33", "codex:019a3f0c"},
	} {
		if got := shortID(c.id); got != c.want {
			t.Errorf("shortID(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

// A corrupt session file is named once, on one line, by `mew status`, and
// `mew doctor` mentions it (issue 40).
func TestCorruptSessionFileSaidOnceAndByDoctor(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MEW_HOME", home)
	t.Setenv("MEW_TMUX_SOCKET", filepath.Join(home, "none.sock"))
	os.MkdirAll(filepath.Join(home, "sessions"), 0o700)
	os.WriteFile(filepath.Join(home, "sessions", "abc.json"), []byte("{garbage\nmore"), 0o600)
	var out, errb strings.Builder
	if code := run([]string{"status"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if n := strings.Count(errb.String(), "abc.json"); n != 1 || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stderr names the file %d times, on %d lines: %q", n, strings.Count(errb.String(), "\n"), errb.String())
	}
	out.Reset()
	run([]string{"doctor", "--local"}, &out, &errb)
	if !strings.Contains(out.String(), "a session file cannot be read") || !strings.Contains(out.String(), "abc.json") {
		t.Errorf("doctor does not mention it:\n%s", out.String())
	}
}
