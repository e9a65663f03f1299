package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
)

// Enter on the terminal board jumps to a session only a screen sees
// (tmux:%N, no hook, no store file): the board plans the jump from the
// merged records, as `mew answer` does, instead of failing with "cannot
// read the session" (issue 22).
func TestWatchEnterJumpsToAScreenOnlySession(t *testing.T) {
	s := fakeagent.Start(t, "60")
	s.WaitDialog(t, 1)
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	tm := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", s.Socket}, args...)...).CombinedOutput()
		return string(out)
	}
	board := strings.TrimSpace(tm("new-window", "-d", "-P", "-F", "#{pane_id}", "-e", "HOME="+home,
		"-e", "MEW_HOME="+filepath.Join(home, ".mew"), "-e", "MEW_TMUX_SOCKET="+s.Socket, mew, "watch"))
	if !strings.HasPrefix(board, "%") {
		t.Fatalf("no board pane: %q", board)
	}
	waitScreen := func(what string, ok func(string) bool) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if screen = tm("capture-pane", "-p", "-t", board); ok(screen) {
				return screen
			}
		}
		t.Fatalf("the board never showed %s:\n%s", what, screen)
		return ""
	}
	waitScreen("the waiting screen-only session", func(sc string) bool { return strings.Contains(sc, "waiting · permission") })
	// A person's terminal on that server, showing the board's window: the
	// jump switches it to the agent's pane.
	client := exec.Command("tmux", "-S", s.Socket, "attach", "-t", board)
	ptmx, err := pty.StartWithSize(client, &pty.Winsize{Rows: 30, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { client.Process.Kill(); client.Wait(); ptmx.Close() }()
	go io.Copy(io.Discard, ptmx)
	clientPane := func() string { return strings.TrimSpace(tm("list-clients", "-F", "#{pane_id}")) }
	for deadline := time.Now().Add(60 * time.Second); clientPane() != board; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the client never showed the board: %q", clientPane())
		}
	}
	tm("send-keys", "-t", board, "Enter")
	screen := waitScreen("the jump's outcome", func(sc string) bool {
		return !strings.Contains(sc, "jumping to") && (strings.Contains(sc, "could not jump") || strings.Contains(sc, "tmux"))
	})
	for _, never := range []string{"cannot read the session", "is gone", "sessions/tmux:"} {
		if strings.Contains(screen, never) {
			t.Fatalf("the board could not plan a jump to the screen-only session (%q):\n%s", never, screen)
		}
	}
	for deadline := time.Now().Add(60 * time.Second); clientPane() != s.Pane; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the person's client shows %q, not the agent's pane %s:\n%s", clientPane(), s.Pane, screen)
		}
	}
}
