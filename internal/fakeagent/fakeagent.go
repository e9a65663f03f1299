// Package fakeagent runs a stand-in for Claude Code's permission dialog
// in a private tmux server: the tests and the benchmark of answering type
// into it. The stand-in is a program named claude (the tmux source knows
// it by that name) that draws the dialog for "touch file-<n>", reads one
// key without Enter or echo (Claude Code's dialogs take a digit at once),
// logs it, draws the finished turn, and after a pause the next dialog.
package fakeagent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const script = `#!/bin/bash
n=0
while true; do
  n=$((n+1))
  printf '\033[2J\033[H● Creating a file\r\n────────────────────────────────────────────────────────────\r\n Bash command\r\n touch file-%d\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. Yes, and always allow access to /p\r\n   3. No\r\n\r\n Esc to cancel · Tab to amend' "$n"
  IFS= read -rsn1 k || exit 0
  printf '%s\n' "$k" >> "$KEYLOG"
  printf '\033[2J\033[H● Done.\r\n\r\n✻ Worked for 1s\r\n❯ \r\n  ⏸ manual mode on · ? for shortcuts'
  sleep "$PAUSE"
done
`

// Write writes the stand-in into dir/bin/claude and returns its path. It
// reads $KEYLOG (the file it logs keys to) and $PAUSE (seconds between a
// key and the next dialog).
func Write(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "bin", "claude")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		tb.Fatal(err)
	}
	return bin
}

// Server is the private tmux server; the stand-in runs in Pane.
type Server struct {
	Socket string
	Pane   string
	KeyLog string
}

// Start starts a server whose only pane runs the stand-in, pausing pause
// (seconds, as sleep(1) takes them) between a key and the next dialog.
// It skips the test when tmux is not installed; the server goes with the
// test.
func Start(tb testing.TB, pause string) *Server {
	tb.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		tb.Skip("tmux is not installed")
	}
	dir := tb.TempDir()
	bin := Write(tb, dir)
	s := &Server{Socket: filepath.Join(dir, "sock"), KeyLog: filepath.Join(dir, "keys.log")}
	out, err := exec.Command("tmux", "-S", s.Socket, "-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_id}",
		"-x", "100", "-y", "20", "-e", "KEYLOG="+s.KeyLog, "-e", "PAUSE="+pause, bin).CombinedOutput()
	if err != nil {
		tb.Fatalf("tmux: %v: %s", err, out)
	}
	s.Pane = strings.TrimSpace(string(out))
	tb.Cleanup(func() { exec.Command("tmux", "-S", s.Socket, "kill-server").Run() })
	return s
}

// Keys is what the stand-in read so far, one key a line.
func (s *Server) Keys() []string {
	data, _ := os.ReadFile(s.KeyLog)
	return strings.Fields(string(data))
}

// Capture is the pane's screen now.
func (s *Server) Capture(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "tmux", "-S", s.Socket, "capture-pane", "-p", "-t", s.Pane).Output()
	return string(out), err
}

// WaitDialog waits until the pane shows the dialog for "touch file-<n>"
// and returns when it was first seen.
func (s *Server) WaitDialog(tb testing.TB, n int) time.Time {
	tb.Helper()
	want := "touch file-" + itoa(n) + "\n"
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if screen, err := s.Capture(context.Background()); err == nil && strings.Contains(screen, want) && strings.Contains(screen, "Esc to cancel") {
			return time.Now()
		}
	}
	tb.Fatalf("the stand-in never showed the dialog for file-%d", n)
	return time.Time{}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
