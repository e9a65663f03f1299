package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/testbin"
)

// A long-running mew that is told to stop (Ctrl-C, a kill, its terminal or
// ssh connection gone, its reader gone) exits 0 after letting go of its
// tmux client, rather than dying on the signal with the client still on
// the person's server.
func TestWatchingCommandsStopCleanly(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		stop func(cmd *exec.Cmd, stdout *os.File)
	}{
		{"SIGHUP", []string{"status", "--watch", "--json"}, func(cmd *exec.Cmd, _ *os.File) { cmd.Process.Signal(syscall.SIGHUP) }},
		{"SIGTERM", []string{"status", "--watch"}, func(cmd *exec.Cmd, _ *os.File) { cmd.Process.Signal(syscall.SIGTERM) }},
		{"reader gone", []string{"status", "--watch", "--json", "--feed"}, func(_ *exec.Cmd, stdout *os.File) { stdout.Close() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "mews") // short: a socket path
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			socket := filepath.Join(dir, "tmux.sock")
			tmux := func(args ...string) (string, error) {
				out, err := exec.Command("tmux", append([]string{"-S", socket}, args...)...).Output()
				return string(out), err
			}
			if _, err := tmux("new-session", "-d", "-s", "work", "sh"); err != nil {
				t.Fatal(err)
			}
			defer tmux("kill-server")

			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command(mew, c.args...)
			cmd.Env = append(os.Environ(), "MEW_HOME="+filepath.Join(dir, "mew"), "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "claude"),
				"MEW_TMUX_SOCKET="+socket, "MEW_PROCSCAN=off")
			cmd.Stdout = w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			client := "mew-monitor-" + strconv.Itoa(cmd.Process.Pid)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if out, _ := tmux("list-sessions", "-F", "#{session_name}"); strings.Contains(out, client) {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("mew never attached its tmux client")
				}
			}

			c.stop(cmd, r)
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("mew did not stop cleanly: %v", err)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("mew did not stop")
			}
			if out, _ := tmux("list-sessions", "-F", "#{session_name}"); strings.Contains(out, client) {
				t.Errorf("mew exited with its client's session still on the server:\n%s", out)
			}
		})
	}
}
