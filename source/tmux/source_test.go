package tmux

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/terminal/termid"
)

// server is a private tmux server for one test.
type server struct {
	t      testing.TB
	socket string
	dir    string
}

func startServer(t *testing.T) *server { return startServerTB(t) }

func startServerTB(t testing.TB) *server {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	s := &server{t: t, socket: filepath.Join(dir, "sock"), dir: dir}
	s.tmux("new-session", "-d", "-s", "work", "-x", "120", "-y", "32", "env PS1='$ ' bash --norc --noprofile")
	t.Cleanup(func() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() })
	// tmux's sh execs env, which execs bash: a sweep in between sees a job
	// that is not a shell yet. Tests start from the shell.
	for deadline := time.Now().Add(10 * time.Second); strings.TrimSpace(s.tmux("display-message", "-p", "-t", "work", "#{pane_current_command}")) != "bash"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the shell of the first pane did not start")
		}
	}
	return s
}

func (s *server) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// fakeAgent writes an executable named claude that draws the given screens
// one after the other, each when a line is typed, then exits.
func (s *server) fakeAgent(screens ...string) string {
	s.t.Helper()
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	for i, sc := range screens {
		if i > 0 {
			b.WriteString("read -r _\n")
		}
		b.WriteString("printf '\\033[2J\\033[H%s' " + shellQuote(sc) + "\n")
	}
	b.WriteString("read -r _\n")
	path := filepath.Join(s.dir, "bin", "claude")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(b.String()), 0o755); err != nil {
		s.t.Fatal(err)
	}
	return path
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

const (
	promptScreen = " Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend"
	idleScreen   = "● Done.\r\n\r\n✻ Worked for 2s\r\n❯ \r\n  ⏸ manual mode on · ? for shortcuts"
)

func newSource(s *server) *Source {
	book := rules.Embedded()
	return New(s.socket, func() (*rules.Book, []error) { return book, nil })
}

func waitObs(t *testing.T, ch <-chan []source.Observation, what string, ok func([]source.Observation) bool) []source.Observation {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case obs := <-ch:
			if ok(obs) {
				return obs
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestSourceFollowsAnAgentInAPane(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	if obs, err := src.Scan(ctx); err != nil || len(obs) != 0 {
		t.Fatalf("a shell pane is listed: %+v %v", obs, err)
	}
	agent := s.fakeAgent(promptScreen, idleScreen)

	ch := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, ch) }()

	s.tmux("send-keys", "-t", "work", agent, "Enter")
	obs := waitObs(t, ch, "the prompt", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenBlocked
	})[0]
	pane := strings.TrimSpace(s.tmux("display-message", "-p", "-t", "work", "#{pane_id}"))
	if obs.Fallback != "tmux:"+pane || obs.Agent != "claude" || obs.Process.Tmux.Pane != pane || obs.Screen.Reason != session.ReasonPermission || obs.Process.Pid == 0 || !strings.HasPrefix(obs.Process.Tty, "/dev/") {
		t.Errorf("observation: %+v screen %+v", obs, *obs.Screen)
	}
	// Mew leaves nothing on the server: no session, no client, no resize.
	if got := s.tmux("list-sessions", "-F", "#{session_name}"); got != "work\n" {
		t.Errorf("sessions: %q, want only the person's", got)
	}
	if got := s.tmux("list-clients"); got != "" {
		t.Errorf("Mew is attached to the server: %q", got)
	}
	if got := s.tmux("display-message", "-p", "-t", "work", "#{window_width}x#{window_height}"); strings.TrimSpace(got) != "120x32" {
		t.Errorf("the person's window was resized to %s", got)
	}

	s.tmux("send-keys", "-t", "work", "Enter")
	waitObs(t, ch, "done", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenIdle && o[0].Screen.TurnEnded
	})
	s.tmux("send-keys", "-t", "work", "Enter") // the fake agent exits; the shell is back
	// The screen's job is the shell now; the process is still the agent
	// that left, its session's.
	waitObs(t, ch, "the agent gone to the background", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.Background && o[0].Screen.Pid == 0 &&
			o[0].Process.Pid == obs.Process.Pid && o[0].Process.StartMs == obs.Process.StartMs
	})

	// The person ends their last session: Mew leaves, the server exits.
	s.tmux("kill-session", "-t", "work")
	waitObs(t, ch, "no panes", func(o []source.Observation) bool { return len(o) == 0 })
	deadline := time.Now().Add(60 * time.Second)
	for exec.Command("tmux", "-S", s.socket, "list-sessions").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("Mew kept the tmux server alive: %s", s.tmux("list-sessions"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestScanWithoutServer(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	src := New(filepath.Join(t.TempDir(), "none"), func() (*rules.Book, []error) { return rules.Embedded(), nil })
	obs, err := src.Scan(context.Background())
	if err != nil || len(obs) != 0 {
		t.Fatalf("no server: %v %v", obs, err)
	}
	// And it never starts one.
	if _, err := os.Stat(src.Socket); err == nil {
		t.Fatal("a server was started")
	}
}

func TestPaneIDs(t *testing.T) {
	for _, id := range []string{"%0", "%12"} {
		if !termid.ValidTmuxPane(id) {
			t.Errorf("termid.ValidTmuxPane(%q) = false", id)
		}
	}
	for _, id := range []string{"", "%", "12", "%1;kill-server", "%-1", "%1 ", "%99999999999"} {
		if termid.ValidTmuxPane(id) {
			t.Errorf("termid.ValidTmuxPane(%q) = true", id)
		}
	}
	if _, err := Capture(context.Background(), Exec{}, "%1;kill-server"); err == nil {
		t.Error("Capture took a hostile pane id")
	}
}

func TestSniffShellCommand(t *testing.T) {
	book := rules.Embedded()
	cases := map[string][]string{
		"claude":      {"sh", "-c", "claude --resume x"},
		"codex":       {"/bin/bash", "-c", "cd /src/p && FOO=1 exec codex please"},
		"gemini":      {"sh", "-c", "node /usr/local/bin/gemini; echo done"},
		"amp":         {"sh", "-c", "cd /p; env -u TMUX AMP_URL=http://127.0.0.1:1/ amp"},
		"opencode":    {"sh", "-c", "nice -n 5 nohup /usr/bin/env -i -- OPENCODE_X=1 opencode .; echo $?"},
		"claude/time": {"sh", "-c", "time -p claude -c"},
		"":            {"bash"},
	}
	for want, argv := range cases {
		want, _, _ = strings.Cut(want, "/")
		if got := sniffShellCommand(book, argv); got != want {
			t.Errorf("%q: %q, want %q", argv, got, want)
		}
	}
	for _, argv := range [][]string{{"-bash"}, {"sh", "-c", "vim claude.md"}, {"sh", "-c", "echo codex"}, {"sh", "-c", "env FOO=codex vim"}, {"sh", "-c", "nice -n claude"}} {
		if got := sniffShellCommand(book, argv); got != "" {
			t.Errorf("%q sniffed as %q", argv, got)
		}
	}
}

// A server that starts after Mew: its socket's creation is an event, and
// its panes are read at once (no polling while there is no server).
func TestSourceNoticesAServerStartingLater(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	book := rules.Embedded()
	src := New(sock, func() (*rules.Book, []error) { return book, nil })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan []source.Observation, 16)
	go src.Watch(ctx, ch)
	time.Sleep(300 * time.Millisecond)
	s := &server{t: t, socket: sock, dir: dir}
	agent := s.fakeAgent(promptScreen)
	s.tmux("new-session", "-d", "-s", "late", "-x", "120", "-y", "32", agent)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	start := time.Now()
	waitObs(t, ch, "the late server's agent", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenBlocked
	})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the new server was noticed after %v: it was polled for, not watched", d)
	}
}

// A server binds its socket before it listens and before its first
// session, and nothing in that window is an event Mew hears: a young socket
// that does not answer yet is looked at again soon, an old one (a dead
// server's) only after the backoff.
func TestStartingSocketIsRetriedSoon(t *testing.T) {
	dir, err := os.MkdirTemp("", "mewt") // short: a socket path
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err) // bound, not listening: connections are refused
	}
	now := time.Now()
	if got := nextLook(sock, retryEvery, now); got != startingRetry {
		t.Errorf("a socket made just now: next look in %v, want %v", got, startingRetry)
	}
	if got := nextLook(sock, 4*retryEvery, now.Add(startingFor+time.Second)); got != 4*retryEvery {
		t.Errorf("a dead server's old socket: next look in %v, want the backoff", got)
	}
	if got := nextLook(filepath.Join(dir, "none"), retryEvery, now); got != maxRetry {
		t.Errorf("no socket: next look in %v, want %v", got, maxRetry)
	}
}

func TestSniffAgy(t *testing.T) {
	book := rules.Embedded()
	if got := book.SniffProcess("agy", []string{"agy", "--model", "x"}); got != "agy" {
		t.Fatalf("agy sniffed as %q", got)
	}
	if got := sniffShellCommand(book, []string{"sh", "-c", "env GEMINI_API_KEY=x agy"}); got != "agy" {
		t.Fatalf("env … agy sniffed as %q", got)
	}
}
