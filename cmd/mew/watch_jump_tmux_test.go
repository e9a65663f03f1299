package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/proctree"
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
	board, boardPid, _ := strings.Cut(strings.TrimSpace(tm("new-window", "-d", "-P", "-F", "#{pane_id} #{pane_pid}", "-e", "HOME="+home,
		"-e", "MEW_HOME="+filepath.Join(home, ".mew"), "-e", "MEW_TMUX_SOCKET="+s.Socket, mew, "watch")), " ")
	if !strings.HasPrefix(board, "%") {
		t.Fatalf("no board pane: %q", board)
	}
	t.Cleanup(func() { stopBoard(t, tm, board, boardPid) }) // before its MEW_HOME goes
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

// Enter on a session only the process scan sees (proc:<pid>): an agent in
// a pane of another tmux server than the one Mew reads. The row names that
// server, and the jump switches the person's client on that server to the
// agent's pane (issue 22).
func TestWatchEnterJumpsToAProcessScanSession(t *testing.T) {
	dir := t.TempDir()
	bin := fakeagent.Write(t, dir)
	// A project name no other test's stand-in has: the process scan sees
	// every agent on the machine, and the row is found by it.
	project := fmt.Sprintf("procjump%d", time.Now().UnixNano()%1e9)
	work := filepath.Join(dir, project)
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.sock") // the agent's server, which Mew does not read
	theirs := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", other, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	agentPane := theirs("new-session", "-d", "-P", "-F", "#{pane_id}", "-x", "100", "-y", "20", "-c", work,
		"-e", "KEYLOG="+filepath.Join(dir, "keys.log"), "-e", "PAUSE=60", bin)
	t.Cleanup(func() { theirs("kill-server") })
	shellPane := theirs("new-window", "-d", "-P", "-F", "#{pane_id}", "sleep", "600")
	if !strings.HasPrefix(agentPane, "%") || !strings.HasPrefix(shellPane, "%") {
		t.Fatalf("the agent's server: %q %q", agentPane, shellPane)
	}

	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	ours := filepath.Join(dir, "ours.sock") // the server Mew reads, where the board runs
	tm := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", ours, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return string(out)
	}
	board, boardPid, _ := strings.Cut(strings.TrimSpace(tm("new-session", "-d", "-P", "-F", "#{pane_id} #{pane_pid}", "-x", "160", "-y", "50",
		"-e", "HOME="+home, "-e", "MEW_HOME="+filepath.Join(home, ".mew"), "-e", "MEW_TMUX_SOCKET="+ours,
		"-e", "MEW_PROCSCAN=on", mew, "watch")), " ") // the package's tests turn the scan off (main_test.go)
	if !strings.HasPrefix(board, "%") {
		t.Fatalf("no board pane: %q", board)
	}
	t.Cleanup(func() { stopBoard(t, tm, board, boardPid); tm("kill-server") })
	screen := func() string { return tm("capture-pane", "-p", "-t", board) }
	var sc string
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(sc, project); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the board never listed the agent of the other server (%s):\n%s", project, sc)
		}
		sc = screen()
	}
	// Select its row: the selection follows a session, not a line, so
	// rows other tests' agents add or remove do not move it.
	for presses := 0; !strings.Contains(sc, "› "+project); presses++ {
		if presses > 200 {
			t.Fatalf("the row of %s could not be selected:\n%s", project, sc)
		}
		tm("send-keys", "-t", board, "j")
		if presses%20 == 19 {
			tm("send-keys", "-t", board, "g") // past the end: from the top again
		}
		time.Sleep(50 * time.Millisecond)
		sc = screen()
	}

	// The person's terminal on the agent's server, showing the other
	// window.
	client := exec.Command("tmux", "-S", other, "attach", "-t", shellPane)
	ptmx, err := pty.StartWithSize(client, &pty.Winsize{Rows: 30, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { client.Process.Kill(); client.Wait(); ptmx.Close() }()
	go io.Copy(io.Discard, ptmx)
	clientPane := func() string { return theirs("list-clients", "-F", "#{pane_id}") }
	for deadline := time.Now().Add(60 * time.Second); clientPane() != shellPane; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the client never showed the shell window: %q", clientPane())
		}
	}
	tm("send-keys", "-t", board, "Enter")
	for deadline := time.Now().Add(60 * time.Second); clientPane() != agentPane; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the person's client shows %q, not the agent's pane %s:\n%s", clientPane(), agentPane, screen())
		}
	}
	if sc := screen(); strings.Contains(sc, "could not jump") {
		t.Fatalf("the board reported a failed jump:\n%s", sc)
	}
}

// stopBoard quits the board (q) and waits for its process to end, so that
// nothing writes into its MEW_HOME while the test's folders are removed.
func stopBoard(t *testing.T, tm func(...string) string, pane, pid string) {
	t.Helper()
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		t.Errorf("the board's pid %q", pid)
		return
	}
	tm("send-keys", "-t", pane, "q")
	// A zombie has quit: reaping it is the tmux server's, which (3.3a, run
	// from a job-control shell) was seen leave it for 30 s and more.
	for deadline := time.Now().Add(30 * time.Second); syscall.Kill(n, 0) == nil && !proctree.Zombie(n); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(n, syscall.SIGKILL)
			t.Errorf("the board (pid %d) did not quit on q", n)
			return
		}
	}
}
