package combine

import (
	"testing"

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

	linux := session.Record{ID: "l", Agent: session.AgentClaude,
		Process: &session.Process{Pid: 30, Ancestors: []session.Ancestor{{Pid: 29, Exe: "/bin/bash"}, {Pid: 28, Exe: "/usr/libexec/gnome-terminal-server"}}},
	}
	if out = Combine(linux, Alive); out.Terminal != "GNOME Terminal" {
		t.Errorf("linux terminal %q", out.Terminal)
	}
}
