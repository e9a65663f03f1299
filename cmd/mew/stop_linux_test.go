package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
)

// A long-running mew that is told to stop (Ctrl-C, a kill, its terminal or
// ssh connection gone, its reader gone) exits 0, rather than dying on the
// signal, and leaves nothing on the person's tmux server.
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
			// An agent's dialog on the server: every command has a line to
			// write about it.
			agent := fakeagent.Start(t, "0.1")
			dir := t.TempDir()
			socket := agent.Socket
			tmux := func(args ...string) (string, error) {
				out, err := exec.Command("tmux", append([]string{"-S", socket}, args...)...).Output()
				return string(out), err
			}
			before, err := tmux("list-sessions", "-F", "#{session_name}")
			if err != nil {
				t.Fatal(err)
			}

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
			first := make(chan error, 1)
			go func() {
				_, err := r.Read(make([]byte, 1))
				first <- err
			}()
			select {
			case err := <-first:
				if err != nil {
					t.Fatalf("mew wrote nothing: %v", err)
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatal("mew never wrote its first update")
			}

			c.stop(cmd, r)
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("mew did not stop cleanly: %v", err)
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatal("mew did not stop")
			}
			if out, _ := tmux("list-sessions", "-F", "#{session_name}"); out != before {
				t.Errorf("mew left sessions on the server:\n%s", out)
			}
			if out, _ := tmux("list-clients"); out != "" {
				t.Errorf("mew left clients on the server:\n%s", out)
			}
		})
	}
}
