package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWatchOnceListsSessions(t *testing.T) {
	c := newBoardCLI(t)
	c.events(t, "watch-work", "/src/alpha", "SessionStart", "UserPromptSubmit")
	c.events(t, "watch-wait", "/src/beta", "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
	time.Sleep(400 * time.Millisecond) // let the wait settle
	// A pipe is not a terminal: plain `mew watch` prints once too.
	for _, args := range [][]string{{"watch", "--once"}, {"watch"}} {
		out, errs, code := c.run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var rows []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "alpha") || strings.Contains(l, "beta") {
				rows = append(rows, strings.Join(strings.Fields(l), " "))
			}
		}
		if len(rows) != 2 || !strings.HasPrefix(rows[0], "beta claude waiting · permission") ||
			!strings.Contains(rows[0], "Bash: make deploy") || !strings.HasPrefix(rows[1], "alpha claude working") {
			t.Errorf("%v printed:\n%s", args, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("%v: escape sequences in piped output", args)
		}
	}
}

// The live board in a real terminal (tmux): it shows a session that
// starts waiting while it runs, and quits on q.
func TestWatchLiveInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	c := newBoardCLI(t)
	// A socket of this test's own: tests running at once (other packages,
	// other checkouts) never share a server.
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tm := func(args ...string) string {
		out, _ := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out)
	}
	env := []string{}
	for _, e := range c.env {
		if strings.HasPrefix(e, "MEW_HOME=") || strings.HasPrefix(e, "CLAUDE_CONFIG_DIR=") {
			env = append(env, "-e", e)
		}
	}
	// Targets are explicit: Mew's own tmux reader is a session of this
	// server too (the newest, so the default target of untargeted commands).
	tm(append(append([]string{"new-session", "-d", "-s", "board", "-x", "120", "-y", "20"}, env...), c.mew, "watch")...)
	defer tm("kill-server")
	waitScreen := func(want string) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if screen = tm("capture-pane", "-p", "-t", "board"); strings.Contains(screen, want) {
				return screen
			}
		}
		t.Fatalf("the screen never showed %q:\n%s", want, screen)
		return ""
	}
	waitScreen("No sessions")
	c.events(t, "tmux-wait", "/src/gamma", "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
	screen := waitScreen("waiting · permission")
	if !strings.Contains(screen, "› gamma") {
		t.Errorf("the waiting session is not listed and selected:\n%s", screen)
	}
	tm("send-keys", "-t", "board", "q")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if strings.Contains(tm("ls"), "no server") || strings.Contains(tm("ls"), "error") {
			break // the pane's program ended, and with it the session
		}
		if time.Now().After(deadline) {
			t.Fatalf("mew watch did not quit on q:\n%s", tm("capture-pane", "-p", "-t", "board"))
		}
	}
}
