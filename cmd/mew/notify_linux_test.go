package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mew-dev/mew/notify"
)

// headlessWatch is a running `mew watch --headless`.
type headlessWatch struct {
	cmd  *exec.Cmd
	done chan error
	log  string
}

// startHeadless starts `mew watch --headless` and waits until it has
// taken the sending lock and learned the sessions there already (its
// first update only learns).
func startHeadless(t *testing.T, c *cli, env ...string) *headlessWatch {
	t.Helper()
	cmd := exec.Command(c.mew, "watch", "--headless")
	cmd.Env = append(append([]string{}, c.env...), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &headlessWatch{cmd: cmd, done: make(chan error, 1), log: filepath.Join(c.home, "mew.log")}
	go func() { h.done <- cmd.Wait() }()
	t.Cleanup(func() { h.stop(t) })
	h.waitLog(t, "notify: this Mew sends the alerts")
	h.waitLog(t, "notify: watching")
	return h
}

func (h *headlessWatch) stop(t *testing.T) {
	if h.cmd.ProcessState != nil || h.cmd.Process == nil {
		return
	}
	h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
	case <-time.After(10 * time.Second):
		h.cmd.Process.Kill()
		t.Error("mew watch --headless did not stop on SIGTERM")
	}
}

// waitLog waits until mew.log has a line containing want.
func (h *headlessWatch) waitLog(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(h.log)
		if strings.Contains(string(b), want) {
			return
		}
		select {
		case err := <-h.done:
			t.Fatalf("mew watch --headless ended (%v) before %q; log:\n%s", err, want, b)
		case <-time.After(20 * time.Millisecond):
		}
	}
	b, _ := os.ReadFile(h.log)
	t.Fatalf("no %q in mew.log:\n%s", want, b)
}

func (c *cli) hookEventEnv(t testing.TB, payload string, env ...string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `"$0"`, c.hook)
	cmd.Stdin = strings.NewReader(payload)
	cmd.Env = append(append([]string{}, c.env...), env...)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("hook: %v %q", err, out)
	}
}

// startWaiting sends the events of a session that starts waiting on a
// permission prompt.
func (c *cli) startWaiting(t testing.TB, id string, env ...string) {
	t.Helper()
	for _, p := range []string{
		`{"hook_event_name":"SessionStart","source":"startup","cwd":"/home/dev/shop"}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"run the tests"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make test"},"tool_use_id":"t1"}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"make test"}}`,
	} {
		c.hookEventEnv(t, `{"session_id":"`+id+`",`+p[1:], env...)
	}
}

// headlessRun sends a `claude -p` run's events: it waits, then finishes.
func (c *cli) headlessRun(t testing.TB, id string) {
	t.Helper()
	c.startWaiting(t, id, "CLAUDE_CODE_SESSION_ATTENDED=0")
	c.hookEventEnv(t, `{"session_id":"`+id+`","hook_event_name":"Stop"}`, "CLAUDE_CODE_SESSION_ATTENDED=0")
}

// hookSink is a webhook on loopback that hands out each POSTed message.
func hookSink(t *testing.T) (*httptest.Server, chan notify.Message) {
	got := make(chan notify.Message, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m notify.Message
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		got <- m
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func addSink(t *testing.T, c *cli, args ...string) {
	t.Helper()
	if out, errOut, code := c.run(t, append([]string{"notify", "add"}, args...)...); code != 0 {
		t.Fatalf("notify add: %d %s %s", code, out, errOut)
	}
}

const (
	waitingID  = "7b0e3a52-1f4c-4d7e-9a0b-5c6d7e8f9a01"
	headlessID = "7b0e3a52-1f4c-4d7e-9a0b-5c6d7e8f9a02"
)

func TestHeadlessWatchWebhookOnePostForTheWaitingSession(t *testing.T) {
	c := newCLI(t)
	srv, got := hookSink(t)
	addSink(t, c, "hook", "--webhook", srv.URL+"/mew")
	h := startHeadless(t, c)
	c.headlessRun(t, headlessID)
	c.startWaiting(t, waitingID)
	select {
	case m := <-got:
		if m.Session.ID != waitingID || m.Event != "waiting" || m.Reason != "permission" {
			t.Fatalf("POST: %+v", m)
		}
	case <-time.After(30 * time.Second):
		b, _ := os.ReadFile(h.log)
		t.Fatalf("no POST; log:\n%s", b)
	}
	h.stop(t)
	if len(got) != 0 {
		t.Fatalf("more POSTs: %+v", <-got)
	}
}

func TestHeadlessWatchCommandSink(t *testing.T) {
	c := newCLI(t)
	out := filepath.Join(t.TempDir(), "alerts.jsonl")
	addSink(t, c, "log", "--command", "--", "/bin/sh", "-c", `cat >> "$0"; echo >> "$0"`, out)
	h := startHeadless(t, c)
	c.headlessRun(t, headlessID)
	c.startWaiting(t, waitingID)
	var lines []string
	deadline := time.Now().Add(30 * time.Second)
	for len(lines) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // the command's output file is the event
		lines = readLines(out)
	}
	h.stop(t)
	lines = readLines(out)
	if len(lines) != 1 {
		b, _ := os.ReadFile(h.log)
		t.Fatalf("command got %d alerts, want 1: %q\nlog:\n%s", len(lines), lines, b)
	}
	var m notify.Message
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil || m.Session.ID != waitingID {
		t.Fatalf("stdin: %v %q", err, lines[0])
	}
}

func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

// TestNotifySubagentStopsAndHeadlessSendNothing replays a real Claude
// Code run (a main turn whose background subagents re-engage it three
// times) at its recorded pace, and a headless run, then a session that
// waits: the only POST is that wait's.
func TestNotifySubagentStopsAndHeadlessSendNothing(t *testing.T) {
	c := newCLI(t)
	srv, got := hookSink(t)
	addSink(t, c, "hook", "--webhook", srv.URL+"/mew")
	h := startHeadless(t, c)
	c.headlessRun(t, headlessID)
	f, err := os.Open("../../testdata/fixtures/claude-code-2.1.328/subagent/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			T      float64         `json:"t"`
			Source string          `json:"source"`
			Doc    json.RawMessage `json:"doc"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Source != "hook" {
			continue
		}
		// The recording's own pace: the done between a subagent's stop
		// and the re-engagement lasts what it lasted.
		time.Sleep(time.Until(start.Add(time.Duration(e.T * float64(time.Second)))))
		c.hookEventEnv(t, string(e.Doc))
	}
	c.startWaiting(t, waitingID)
	select {
	case m := <-got:
		if m.Session.ID != waitingID {
			t.Fatalf("POST for %s (%s), want only the waiting session's", m.Session.ID, m.Event)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no POST for the waiting session")
	}
	h.stop(t)
	if len(got) != 0 {
		t.Fatalf("more POSTs: %+v", <-got)
	}
}

// TestNotifyFocusTwoTmuxClients: two people's-terminals attached to one
// tmux server, one showing session one's pane, the other session two's
// first window. A session waiting in the pane in front sends nothing; one
// in the window behind sends its alert.
func TestNotifyFocusTwoTmuxClients(t *testing.T) {
	tmuxBin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	sock := filepath.Join(t.TempDir(), "s")
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmuxBin, append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tm("new-session", "-d", "-s", "one", "-x", "80", "-y", "24", "cat")
	t.Cleanup(func() { exec.Command(tmuxBin, "-S", sock, "kill-server").Run() })
	tm("new-session", "-d", "-s", "two", "-x", "80", "-y", "24", "cat")
	tm("new-window", "-d", "-t", "two", "cat")
	front := tm("display-message", "-p", "-t", "one:0", "#{pane_id}")
	behind := tm("display-message", "-p", "-t", "two:1", "#{pane_id}")
	server := tm("display-message", "-p", "#{pid}")
	for _, s := range []string{"one", "two"} {
		attachClient(t, tmuxBin, sock, s)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(strings.Fields(tm("list-clients", "-F", "#{client_tty}"))) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the two clients did not attach")
		}
		time.Sleep(20 * time.Millisecond) // tmux has no event for a client attaching
	}

	c := newCLI(t)
	const frontID, behindID = "4d1e7c2a-0b3f-4a5e-8c6d-7e8f9a0b1c01", "4d1e7c2a-0b3f-4a5e-8c6d-7e8f9a0b1c02"
	srv, got := hookSink(t)
	addSink(t, c, "hook", "--webhook", srv.URL+"/mew")
	h := startHeadless(t, c, "MEW_TMUX_SOCKET="+sock)
	inPane := func(pane string) []string {
		return []string{"TMUX=" + sock + "," + server + ",0", "TMUX_PANE=" + pane}
	}
	c.startWaiting(t, frontID, inPane(front)...)
	c.startWaiting(t, behindID, inPane(behind)...)
	select {
	case m := <-got:
		if m.Session.ID != behindID {
			t.Fatalf("POST for %s, want only the session behind (%s)", m.Session.ID, behindID)
		}
	case <-time.After(30 * time.Second):
		b, _ := os.ReadFile(h.log)
		t.Fatalf("no POST for the session behind; log:\n%s", b)
	}
	h.waitLog(t, frontID+" waiting, not sent: focused")
	h.stop(t)
	if len(got) != 0 {
		t.Fatalf("more POSTs: %+v", <-got)
	}
}

// attachClient attaches a tmux client to session s in a terminal of its
// own (a PTY), as a person's terminal window would.
func attachClient(t *testing.T, tmuxBin, sock, s string) {
	t.Helper()
	cmd := exec.Command(tmuxBin, "-u", "-S", sock, "attach-session", "-t", s)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, f) // a terminal that is read
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		f.Close()
	})
}

// A webhook that fails is retried, given up on, logged, and shown by
// `mew doctor` and `mew notify list` without its token.
func TestNotifyFailingSinkShownByDoctor(t *testing.T) {
	c := newCLI(t)
	tries := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tries <- struct{}{}
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	addSink(t, c, "phone", "--webhook", srv.URL+"/secret-topic-1234?auth=tok", "--preset", "ntfy")
	out, _, _ := c.run(t, "notify", "list")
	if strings.Contains(out, "secret-topic") || strings.Contains(out, "tok") || !strings.Contains(out, "phone") {
		t.Fatalf("list shows the secret or not the sink:\n%s", out)
	}
	h := startHeadless(t, c)
	c.startWaiting(t, waitingID)
	h.waitLog(t, "notify phone: gave up on the alert for "+waitingID)
	if len(tries) != 3 {
		t.Errorf("%d tries, want 3", len(tries))
	}
	h.stop(t)
	out, _, _ = c.run(t, "doctor", "--local")
	if !strings.Contains(out, "notify phone") || !strings.Contains(out, "503") || strings.Contains(out, "secret-topic") {
		t.Fatalf("doctor:\n%s", out)
	}
	if !strings.Contains(out, "no Mew is running to send alerts") {
		t.Errorf("doctor does not say nobody sends:\n%s", out)
	}
}

func TestNotifyAddRefusesBadSinks(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"x", "--webhook", "file:///etc/passwd"},
		{"x", "--webhook", "javascript:alert(1)"},
		{"x", "--command", "--", "sh", "-c", "echo"},
		{"../x", "--desktop"},
		{"x", "--webhook", "https://a.example", "--preset", "nope"},
	} {
		if _, errOut, code := c.run(t, append([]string{"notify", "add"}, args...)...); code == 0 || errOut == "" {
			t.Errorf("notify add %q accepted", args)
		}
	}
	if _, err := os.Stat(filepath.Join(c.home, notify.ConfigName)); err == nil {
		t.Error("a refused sink wrote notify.json")
	}
	addSink(t, c, "ok", "--desktop")
	fi, err := os.Stat(filepath.Join(c.home, notify.ConfigName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("notify.json: %v %v", fi, err)
	}
}

// Two `mew watch --headless` on one MEW_HOME: only the one holding the
// sending lock sends; when it quits, the other takes over.
func TestNotifyOneMewSends(t *testing.T) {
	c := newCLI(t)
	srv, got := hookSink(t)
	addSink(t, c, "hook", "--webhook", srv.URL+"/mew")
	first := startHeadless(t, c)
	cmd := exec.Command(c.mew, "watch", "--headless")
	cmd.Env = c.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	second := &headlessWatch{cmd: cmd, done: make(chan error, 1), log: first.log}
	go func() { second.done <- cmd.Wait() }()
	t.Cleanup(func() { second.stop(t) })
	second.waitLog(t, "notify: not sending: mew watch --headless (pid ")
	waitLogCount(t, first.log, "notify: watching", 2)

	c.startWaiting(t, waitingID)
	wantPost(t, got, waitingID)
	// Both saw the wait; the second's alert was not sent (on a loaded
	// machine the second may see it well after the first sent it). Then
	// the first quits: the second sends the next one.
	waitLogCount(t, first.log, waitingID+" waiting, not sent: another Mew sends", 1)
	first.stop(t)
	c.startWaiting(t, headlessID)
	select {
	case m := <-got:
		if m.Session.ID != headlessID {
			t.Fatalf("POST %+v, want the second session's", m)
		}
	case <-time.After(30 * time.Second):
		b, _ := os.ReadFile(first.log)
		t.Fatalf("the second Mew did not take over; log:\n%s", b)
	}
	second.stop(t)
	if len(got) != 0 {
		t.Fatalf("more POSTs: %+v", <-got)
	}
}

func waitLogCount(t *testing.T, path, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		if strings.Count(string(b), want) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond) // mew.log is the event
	}
	t.Fatalf("fewer than %d %q in %s", n, want, path)
}
