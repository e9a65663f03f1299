package gnustep_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/testbin"
)

// agentStandIn plays the agent in a tmux pane: like Claude Code it runs
// the hook through `sh -c` with each payload on stdin, so the real
// capture path records its process, $TMUX and $TMUX_PANE; then it stays
// alive (a live agent is what the jump planner trusts).
const agentStandIn = `package main

import (
	"os"
	"os/exec"
	"time"
)

func main() {
	hook, marker := os.Args[1], os.Args[2]
	msg := "ok"
	for _, payload := range os.Args[3:] {
		cmd := exec.Command("/bin/sh", "-c", ` + "`" + `"$0" < "$1"` + "`" + `, hook, payload)
		if err := cmd.Run(); err != nil {
			msg = err.Error()
		}
	}
	os.WriteFile(marker, []byte(msg), 0o644)
	time.Sleep(time.Hour)
}
`

// tmuxRun runs tmux on socket with the harness's environment.
func (h *harness) tmuxRun(socket string, args ...string) string {
	h.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", socket}, args...)...)
	cmd.Env = append(append([]string(nil), h.env...), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestGNUstepJumpTmux: an agent in a real tmux pane asks for permission
// (its hooks run in that pane, so the session records $TMUX and
// $TMUX_PANE), a real client is attached to that server; an X click on the
// session's cat on the GNUstep panel plans the jump, and the plan is the
// tmux one: switch that client to that pane on that server's socket.
func TestGNUstepJumpTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is missing (.ci/run installs it)")
	}
	h := newHarness(t)
	agent, err := testbin.BuildSource("agent", agentStandIn)
	if err != nil {
		t.Fatal(err)
	}
	// Socket paths must stay short (sun_path): a directory under /tmp.
	dir, err := os.MkdirTemp("", "mewgs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	work, view := filepath.Join(dir, "work.sock"), filepath.Join(dir, "view.sock")
	t.Cleanup(func() {
		for _, s := range []string{view, work} {
			exec.Command("tmux", "-S", s, "kill-server").Run()
		}
	})

	const id = "gs-tmux-1"
	var payloads []string
	for i, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest"} {
		p := fmt.Sprintf(`{"session_id":%q,"cwd":"/src/deploy-bot","hook_event_name":%q`, id, ev)
		switch ev {
		case "UserPromptSubmit":
			p += `,"prompt":"do the thing"`
		case "PreToolUse", "PermissionRequest":
			p += `,"tool_name":"Bash","tool_input":{"command":"make deploy"},"tool_use_id":"toolu_1"`
		}
		path := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(path, []byte(p+"}"), 0o600); err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, path)
	}

	h.start()
	// Window 1: a shell; split beside it, the agent: the plan must name
	// the agent's pane, not the window's first.
	h.tmuxRun(work, "new-session", "-d", "-s", "work", "-x", "100", "-y", "30", "sh")
	marker := filepath.Join(dir, "recorded")
	argv := fmt.Sprintf("exec %q %q %q", agent, h.hook, marker)
	for _, p := range payloads {
		argv += fmt.Sprintf(" %q", p)
	}
	pane := h.tmuxRun(work, "split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "work:0", argv)
	// The person's terminal: a client of the work server in a pane of the
	// view server, so it has a real pty.
	h.tmuxRun(view, "new-session", "-d", "-s", "view", "-x", "100", "-y", "30",
		fmt.Sprintf("env -u TMUX tmux -S %q attach -t work", work))
	var client string
	h.waitFor("the tmux client to attach", func() bool {
		client = h.tmuxRun(work, "list-clients", "-F", "#{client_tty}")
		return client != "" && !strings.Contains(client, "\n")
	})
	h.waitFor("the agent's hooks to run", func() bool {
		b, err := os.ReadFile(marker)
		return err == nil && len(b) > 0
	})
	if b, _ := os.ReadFile(marker); string(b) != "ok" {
		t.Fatalf("the hook failed in the pane: %s", b)
	}

	var pw window
	h.waitFor("the panel to show", func() bool {
		var ok bool
		pw, ok = h.panelWindow()
		return ok
	})
	plans := h.clickFirstCat(pw)
	if len(plans) != 1 {
		t.Fatalf("one click planned %d jumps: %v", len(plans), plans)
	}
	p := plans[0]
	t.Logf("plan: %v", p)
	target, _ := p["target"].(map[string]any)
	for k, want := range map[string]any{"session_id": id, "precision": "pane", "mechanism": "tmux"} {
		if p[k] != want {
			t.Errorf("plan %s = %v, want %v", k, p[k], want)
		}
	}
	for k, want := range map[string]string{"tmux_socket": work, "tmux_pane": pane, "tmux_client": client} {
		if target[k] != want {
			t.Errorf("plan target %s = %v, want %q", k, target[k], want)
		}
	}
	inner, _ := p["inner"].([]any)
	var got []string
	if len(inner) == 1 {
		step, _ := inner[0].(map[string]any)
		args, _ := step["argv"].([]any)
		for _, a := range args {
			s, _ := a.(string)
			got = append(got, s)
		}
	}
	want := []string{"-S", work, "switch-client", "-c", client, "-t", pane}
	if len(got) != len(want)+1 || filepath.Base(got[0]) != "tmux" || strings.Join(got[1:], " ") != strings.Join(want, " ") {
		t.Errorf("the plan's inner steps are %v, want one: tmux %v", inner, want)
	}
	checkQuiet(t, h)
}
