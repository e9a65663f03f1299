package combine

import (
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// inert makes every text of a shown session safe to print (internal/text):
// the hooks' texts are cleaned as they come in, but Claude Code's registry
// (name, cwd, tmux) and a session file anyone can write are not, and a
// `mew status --json` consumer prints what it decodes. Prose becomes one
// line; names and paths keep their spaces.
func inert(out *session.Shown) {
	for _, s := range []*string{&out.Agent, &out.Source, &out.Title, &out.TerminalTitle, &out.Tool, &out.ToolDetail, &out.LastMessage} {
		*s = text.OneLine(*s, 0)
	}
	out.State = session.State(text.OneLine(string(out.State), 0))
	out.Reason = session.Reason(text.OneLine(string(out.Reason), 0))
	for _, s := range []*string{&out.ID, &out.Cwd, &out.Tty, &out.Tmux, &out.TmuxServer, &out.Terminal, &out.TerminalPane} {
		*s = text.Printable(*s)
	}
}
