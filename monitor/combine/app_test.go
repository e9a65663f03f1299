package combine

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// A session outside tmux names its terminal app, the app's pane and the
// title its screen shows (board.Where says them): from its process's
// environment, or from Codex's terminal UI rather than its daemon.
func TestCombineNamesTheTerminalApp(t *testing.T) {
	rec := session.Record{ID: "a", Agent: session.AgentClaude,
		Process: &session.Process{Pid: 10, Tty: "/dev/ttys003", Env: map[string]string{"TERM_PROGRAM": "iTerm.app", "ITERM_SESSION_ID": "w0t1p0:x"}},
		Screen:  &session.ScreenState{State: session.ScreenIdle, Via: "run", Title: "✳ Fix the login"},
	}
	out := Combine(rec, Alive)
	if out.Terminal != "iTerm2" || out.TerminalTitle != "✳ Fix the login" {
		t.Errorf("terminal %q title %q", out.Terminal, out.TerminalTitle)
	}

	codex := session.Record{ID: "c", Agent: session.AgentCodex,
		Process:  &session.Process{Pid: 20, Name: "codex"}, // the daemon: no terminal
		Terminal: &session.Terminal{Process: session.Process{Pid: 21, StartMs: 1, Tty: "/dev/pts/3", Env: map[string]string{"WEZTERM_PANE": "7"}}},
	}
	out = Combine(codex, Alive)
	if out.Terminal != "WezTerm" || out.TerminalPane != "pane 7" {
		t.Errorf("codex terminal %q pane %q", out.Terminal, out.TerminalPane)
	}

	// Its UI gone, the daemon's environment (the first TUI's) names no
	// terminal of this session.
	codex.Process.Env = map[string]string{"TERM_PROGRAM": "iTerm.app"}
	codex.Terminal.Gone = true
	if out = Combine(codex, Alive); out.Terminal != "" {
		t.Errorf("gone UI: terminal %q", out.Terminal)
	}

	linux := session.Record{ID: "l", Agent: session.AgentClaude,
		Process: &session.Process{Pid: 30, Ancestors: []session.Ancestor{{Pid: 29, Exe: "/bin/bash"}, {Pid: 28, Exe: "/usr/libexec/gnome-terminal-server"}}},
	}
	if out = Combine(linux, Alive); out.Terminal != "GNOME Terminal" {
		t.Errorf("linux terminal %q", out.Terminal)
	}
}

// A Codex on its "Hooks need review" dialog outside tmux (no rollout, no
// hook, no screen: the Codex source says its UI waits on it) reads as
// waiting with that reason, not idle (issue 40, item 6); a screen that
// reads the pane says better.
func TestCodexOnHooksReviewIsWaiting(t *testing.T) {
	start := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	p := session.Process{Pid: 601, StartMs: start.UnixMilli(), Name: "codex", Tty: "/dev/pts/5"}
	rec := session.Record{ID: "proc:601", Agent: session.AgentCodex, Process: &p,
		Terminal: &session.Terminal{Process: p, At: start, HooksReview: true}}
	out := Combine(rec, Alive)
	if out.State != session.Waiting || out.Reason != session.ReasonInput || !strings.Contains(out.ToolDetail, "Hooks need review") ||
		out.Source != "codex:hooks-review" || !out.Since.Equal(start) || !out.NeedsYou() {
		t.Fatalf("shown %+v", out)
	}
	rec.Process = &p
	rec.Terminal = &session.Terminal{Process: p, At: start}
	if out = Combine(rec, Alive); out.State != session.Idle {
		t.Errorf("without the review: %s", out.State)
	}
	rec.Terminal.HooksReview = true
	rec.Screen = &session.ScreenState{State: session.ScreenIdle, Via: "tmux", Pane: "%1", Pid: 601}
	if out = Combine(rec, Alive); out.State != session.Idle {
		t.Errorf("the screen shows it idle: %s", out.State)
	}
	rec.Screen = nil
	if out = Combine(rec, Dead); out.State != session.Exited {
		t.Errorf("dead: %s", out.State)
	}
}
