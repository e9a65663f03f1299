package board

import (
	"path/filepath"
	"strings"
	"unicode"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Where says where a session's agent runs, as a person finds it, in one
// form per kind of place: a tmux pane as "tmux SERVER:SESSION:WINDOW.PANE"
// (the server named always: every server numbers its panes from %0; the
// parts not known left out); outside tmux, its terminal app with the
// app's pane number and the tab's title (`iTerm2 "fix the login"`,
// `WezTerm pane 3 "…"`), the terminal device when no title is known;
// else the terminal device alone; else "-". watched
// is the socket path of the server Mew reads: its server is named by its
// socket's name ("default"), another by ServerName.
func Where(s session.Shown, watched string) string {
	if s.Tmux != "" {
		place := text.OneLine(s.Tmux, 16)
		if s.TmuxWindow != "" {
			place = text.OneLine(s.TmuxWindow, 40) + "." + place
		}
		switch {
		case s.TmuxServer == "":
		case s.TmuxServer == watched:
			place = text.OneLine(filepath.Base(s.TmuxServer), 40) + ":" + place
		default:
			place = ServerName(s.TmuxServer) + ":" + place
		}
		return "tmux " + place
	}
	tty := text.OneLine(strings.TrimPrefix(s.Tty, "/dev/"), 24)
	if s.Terminal != "" {
		place := text.OneLine(s.Terminal, 24)
		if p := text.OneLine(s.TerminalPane, 20); p != "" {
			place += " " + p
		}
		if t := TabTitle(s); t != "" {
			return place + ` "` + t + `"`
		}
		if tty != "" {
			return place + " " + tty
		}
		return place
	}
	if tty != "" {
		return tty
	}
	return "-"
}

// TabTitle is the title a person finds the session's tab by: the one the
// agent set on its terminal, else the session's own (agents title their
// terminal after it); without the status glyph an agent leads it with
// (Claude Code's "✳ ", its spinner), which changes as it works.
func TabTitle(s session.Shown) string {
	t := s.TerminalTitle
	if strings.TrimSpace(t) == "" {
		t = s.Title
	}
	t = strings.TrimLeftFunc(text.OneLine(t, 200), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return text.OneLine(t, 32)
}

// Agent names a session's agent, with its version when known:
// "claude 2.1.3".
func Agent(s session.Shown) string {
	a := text.OneLine(s.Agent, 20)
	if a == "" {
		a = "?"
	}
	if s.AgentVersion != "" {
		a += " " + text.OneLine(s.AgentVersion, 20)
	}
	return a
}

// ServerName is how a tmux server is named to a person: the socket's name
// (`tmux -L NAME`), or its whole path when that name is tmux's "default"
// (another user's, or another TMUX_TMPDIR's, default server).
func ServerName(socket string) string {
	name := filepath.Base(socket)
	if name == "default" || name == "." || name == "/" {
		name = socket
	}
	return text.OneLine(name, 60)
}
