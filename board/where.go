package board

import (
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Where says where a session's agent runs, as a person finds it: its tmux
// pane, with the server named when it is not the one Mew watches (every
// server numbers its panes from %0, so "%0" alone may be another
// server's), else its terminal device, else "-". watched is the socket
// path of the server Mew reads.
func Where(s session.Shown, watched string) string {
	if s.Tmux != "" {
		pane := "tmux " + text.OneLine(s.Tmux, 16)
		if s.TmuxServer == "" || s.TmuxServer == watched {
			return pane
		}
		return pane + " on " + ServerName(s.TmuxServer)
	}
	if s.Tty != "" {
		return text.OneLine(strings.TrimPrefix(s.Tty, "/dev/"), 24)
	}
	return "-"
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
