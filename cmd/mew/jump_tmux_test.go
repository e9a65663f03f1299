package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/store"
)

// agentStandIn plays the agent: like Claude Code it runs the hook through
// `sh -c` with a SessionStart payload on stdin, so the real capture path
// records its process, $TMUX and $TMUX_PANE; then it stays alive.
const agentStandIn = `package main

import (
	"os"
	"os/exec"
	"time"
)

func main() {
	hook, payload, marker := os.Args[1], os.Args[2], os.Args[3]
	cmd := exec.Command("/bin/sh", "-c", ` + "`" + `"$0" < "$1"` + "`" + `, hook, payload)
	err := cmd.Run()
	msg := "ok"
	if err != nil {
		msg = err.Error()
	}
	os.WriteFile(marker, []byte(msg), 0o644)
	time.Sleep(time.Hour)
}
`

// tmuxServer is one tmux server on its own socket, started by the test.
type tmuxServer struct {
	t      *testing.T
	bin    string
	socket string
	env    []string
}

func (s tmuxServer) run(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(s.bin, append([]string{"-S", s.socket}, args...)...)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (s tmuxServer) kill() {
	cmd := exec.Command(s.bin, "-S", s.socket, "kill-server")
	cmd.Env = s.env
	cmd.Run()
}

// eventually polls cond until it holds, or fails after a minute (a bound
// for a loaded machine, not a goal).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestJumpRealTmux: an agent in a pane of window 2 records its session
// through the real mew-hook while a real client (attached from inside a
// second tmux server, so it has a real terminal) looks at window 1; `mew
// jump` makes that client show window 2 and the agent's pane.
func TestJumpRealTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux); skipping the real tmux jump test")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	agent, err := testbin.BuildSource("agent", agentStandIn)
	if err != nil {
		t.Fatal(err)
	}
	// Socket paths must stay short (sun_path): a directory under /tmp.
	dir, err := os.MkdirTemp("", "mewjump")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := filepath.Join(dir, "home")
	const id = "jump-tmux-test-5f1c"
	payload := filepath.Join(dir, "start.json")
	os.WriteFile(payload, []byte(fmt.Sprintf(`{"session_id":%q,"hook_event_name":"SessionStart","source":"startup","cwd":%q}`, id, dir)), 0o600)
	conf := filepath.Join(dir, "tmux.conf")
	os.WriteFile(conf, []byte("set -g base-index 1\nset -g status off\n"), 0o600)

	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") && !strings.HasPrefix(kv, "MEW_HOME=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	env = append(env, "MEW_HOME="+home, "TERM=xterm-256color")
	work := tmuxServer{t: t, bin: tmux, socket: filepath.Join(dir, "work.sock"), env: env}
	view := tmuxServer{t: t, bin: tmux, socket: filepath.Join(dir, "view.sock"), env: env}
	t.Cleanup(view.kill)
	t.Cleanup(work.kill)

	// Window 1: a shell. Window 2: a shell pane and, split beside it, the
	// agent, so the jump must pick the pane, not just the window.
	work.run("-f", conf, "new-session", "-d", "-s", "work", "-x", "100", "-y", "30", "sh")
	work.run("new-window", "-d", "-t", "work:2", "sh")
	marker := filepath.Join(dir, "recorded")
	agentPane := work.run("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "work:2",
		fmt.Sprintf("exec %q %q %q %q", agent, hook, payload, marker))
	work.run("select-window", "-t", "work:1")

	// The person's terminal: a client of the work server, running in a pane
	// of the view server, so it has a real pty.
	view.run("new-session", "-d", "-s", "view", "-x", "100", "-y", "30",
		fmt.Sprintf("env -u TMUX %q -S %q attach -t work", tmux, work.socket))
	var client string
	eventually(t, "the client to attach", func() bool {
		client = work.run("list-clients", "-F", "#{client_tty}")
		return client != "" && !strings.Contains(client, "\n")
	})
	if got := work.run("display", "-p", "-c", client, "#{window_index}"); got != "1" {
		t.Fatalf("the client shows window %q before the jump, want 1", got)
	}

	eventually(t, "the agent to record its session", func() bool {
		data, err := os.ReadFile(marker)
		return err == nil && len(data) > 0
	})
	if data, _ := os.ReadFile(marker); string(data) != "ok" {
		t.Fatalf("the hook failed: %s", data)
	}
	t.Setenv("MEW_HOME", home)
	st, _ := store.Open(hookbin.Fold)
	rec, err := st.Load(id)
	if err != nil {
		t.Fatalf("no session record: %v", err)
	}
	if rec.Process == nil || rec.Process.Tmux == nil || rec.Process.Tmux.Pane != agentPane || rec.Process.Tmux.Socket != work.socket {
		t.Fatalf("recorded process = %+v, want tmux pane %s on %s", rec.Process, agentPane, work.socket)
	}
	if filepath.Base(rec.Process.Name) != "agent" {
		t.Errorf("recorded agent process %q, want the stand-in", rec.Process.Name)
	}

	cmd := exec.Command(mew, "jump", id[:12]) // a unique prefix
	cmd.Env = append(env, "MEW_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mew jump: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "jumped to the pane") {
		t.Errorf("mew jump said %q", out)
	}
	if got := work.run("display", "-p", "-c", client, "#{window_index} #{pane_id}"); got != "2 "+agentPane {
		t.Fatalf("after the jump the client shows %q, want %q", got, "2 "+agentPane)
	}
}
