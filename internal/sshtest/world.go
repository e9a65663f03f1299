package sshtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/demo"
	"github.com/mew-dev/mew/internal/testbin"
)

// World is a "remote" machine for a test: an sshd whose sessions get their
// own HOME, MEW_HOME and CLAUDE_CONFIG_DIR and find the freshly built mew
// on their PATH, and stand-in agents whose hooks write there.
type World struct {
	SSH                      *Server
	Home, MewHome, ClaudeDir string // the remote side
	Mew, Hook                string // the binaries (the same on both sides)
	// TmuxTmp is the remote side's TMUX_TMPDIR: its tmux server is not
	// this machine's (short: it holds a socket path).
	TmuxTmp string
	Env     []string
}

// NewWorld builds mew and mew-hook, makes the remote home and starts its
// sshd; it skips the test, saying why, where sshd cannot run.
func NewWorld(t testing.TB) *World {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the sshd test server runs on Linux (it finds its sessions in /proc)")
	}
	if _, _, err := Find(); err != nil {
		t.Skipf("%v; .ci/run installs openssh-server", err)
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := &World{Mew: mew, Hook: hook, Home: filepath.Join(root, "home")}
	w.MewHome, w.ClaudeDir = filepath.Join(w.Home, ".mew"), filepath.Join(w.Home, ".claude")
	for _, d := range []string{w.MewHome, w.ClaudeDir, filepath.Join(root, "ssh")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if w.TmuxTmp, err = os.MkdirTemp("", "mewr"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(w.TmuxTmp) })
	// A test's panes start a tmux server there; it must not outlive the
	// test. Bounded: a wedged server is
	// not worth hanging the suite for.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		kill := exec.CommandContext(ctx, "tmux", "kill-server")
		kill.Env = append(withoutTmux(os.Environ()), "TMUX_TMPDIR="+w.TmuxTmp)
		kill.Run() // no server (no pane was made) is fine
	})
	w.Env = []string{
		"HOME=" + w.Home, "MEW_HOME=" + w.MewHome, "CLAUDE_CONFIG_DIR=" + w.ClaudeDir,
		"PATH=" + filepath.Dir(mew) + ":/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8",
		"TMUX_TMPDIR=" + w.TmuxTmp, "TERM=xterm-256color",
		// The "remote" is this machine: its process scan would list this
		// machine's own agents (other tests' CLIs).
		"MEW_PROCSCAN=off",
	}
	w.SSH, err = Start(filepath.Join(root, "ssh"), w.Env)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.SSH.Stop()
		// A mew the remote side started (a `status --feed` whose client
		// left) may be orphaned before the stop's sweep of sshd's
		// children, and write its last log line into the home after the
		// test's folder is removed: end those too, and wait for them.
		endProcessesOf(w.Home, 5*time.Second)
		if t.Failed() {
			t.Logf("sshd log:\n%s", w.SSH.Log())
		}
	})
	return w
}

// endProcessesOf ends the processes whose environment has HOME=home
// (SIGTERM, so they finish their log), and waits for them, at most wait.
func endProcessesOf(home string, wait time.Duration) {
	find := func() []int {
		var pids []int
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
			if err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00HOME="+home+"\x00")) {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	for _, pid := range find() {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(find()) == 0 {
			return
		}
	}
}

// Agent is a stand-in agent on the remote side: a process that runs
// mew-hook with each payload, so its session has a live pid there.
type Agent struct {
	ID   string
	Cwd  string
	proc *demo.StandIn
}

// Agent starts a stand-in for session id working in cwd; env adds to its
// environment (e.g. TMUX and TMUX_PANE of a pane there).
func (w *World) Agent(t testing.TB, id, cwd string, env ...string) *Agent {
	t.Helper()
	cmd := exec.Command(w.Mew, "demo", "--agent", w.Hook)
	cmd.Env = append(append(withoutTmux(os.Environ()), w.Env...), env...)
	proc, err := demo.StartStandIn(cmd)
	if err != nil {
		t.Fatal(err)
	}
	a := &Agent{ID: id, Cwd: cwd, proc: proc}
	t.Cleanup(a.Stop)
	return a
}

// Hook sends one hook event (Claude Code 2.1's payload shape) and returns
// once mew-hook has written it, with the time it finished.
func (a *Agent) Hook(t testing.TB, event string, fields map[string]any) time.Time {
	t.Helper()
	m := map[string]any{
		"session_id": a.ID, "transcript_path": "/tmp/" + a.ID + ".jsonl", "cwd": a.Cwd,
		"hook_event_name": event, "permission_mode": "default",
	}
	for k, v := range fields {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	if err := a.proc.Hook(b); err != nil {
		t.Fatal(err)
	}
	return time.Now()
}

// Stop ends the stand-in (its session's process is gone then).
func (a *Agent) Stop() { a.proc.Stop() }

// Bash is the fields of a Bash tool call.
func Bash(id, command string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_use_id": id, "tool_input": map[string]any{"command": command, "description": "run " + command}}
}

// String names the world for messages.
func (w *World) String() string {
	return fmt.Sprintf("sshd on 127.0.0.1:%d, remote home %s", w.SSH.Port, w.Home)
}

// withoutTmux drops the caller's own tmux variables.
func withoutTmux(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			out = append(out, kv)
		}
	}
	return out
}
