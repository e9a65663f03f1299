package board

import (
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Where says where a session's agent runs, as a person finds it, in one
// form per kind of place: a tmux pane as "tmux SERVER:SESSION:WINDOW.PANE"
// (the server named always: every server numbers its panes from %0; the
// parts not known left out), else its terminal device, else "-". watched
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
	if s.Tty != "" {
		return text.OneLine(strings.TrimPrefix(s.Tty, "/dev/"), 24)
	}
	return "-"
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
