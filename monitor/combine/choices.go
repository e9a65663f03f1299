package combine

import (
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// maxLabel bounds a choice's text (the rules read at most this much).
const maxLabel = 200

// answerable fills in, for a waiting session, the answers it offers and
// how Mew can type one into its terminal (package answer does the
// typing, after reading the screen again).
//
// Choices come from the screen when it shows the dialog: the options as
// the agent drew them, whose texts vary by tool and version. Without a
// screen they come from the hooks when the hooks know them (a question's
// options, which the agent draws as given, numbered from 1). A
// permission or plan dialog nobody has seen offers none.
//
// AnswerVia is where the keys can go: the tmux pane (a tmux screen, or
// the pane the hooks recorded), the `mew run` wrapper, or the iTerm2
// session (macOS); "" for any other terminal: the person answers there.
func answerable(out *session.Shown, rec session.Record) {
	if out.State != session.Waiting {
		return
	}
	sc, h, p := rec.Screen, rec.Hook, rec.Process
	switch {
	case sc != nil && sc.State == session.ScreenBlocked && len(sc.Choices) > 0:
		for _, c := range sc.Choices {
			// Labels as the rules read them are one clean line already;
			// a record from elsewhere is made so.
			out.Choices = append(out.Choices, session.Choice{N: c.N, Label: text.OneLine(c.Label, maxLabel)})
		}
	case h != nil && h.State == session.Waiting:
		for _, pt := range h.Pending {
			if pt.Wait == "" {
				continue
			}
			for i, label := range pt.Options {
				out.Choices = append(out.Choices, session.Choice{N: i + 1, Label: text.OneLine(label, maxLabel)})
			}
			break
		}
	}
	switch {
	case sc != nil && sc.Via == "run" && !sc.Background:
		out.AnswerVia = "run"
	case sc != nil && sc.Via == "tmux" && sc.Pane != "" && !sc.Background:
		out.AnswerVia = "tmux"
	case p != nil && p.Tmux != nil && p.Tmux.Pane != "":
		out.AnswerVia = "tmux"
	case p != nil && p.Env["ITERM_SESSION_ID"] != "":
		out.AnswerVia = "iterm2"
	}
}
