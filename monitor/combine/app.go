package combine

import (
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal/termid"
)

// describeApp names the terminal app the session's tab is in: its
// terminal UI's (Codex's TUI) when one shows it, else its process's.
func describeApp(out *session.Shown, rec session.Record) {
	p := rec.Process
	if t := rec.Terminal; t != nil {
		if t.Gone || t.Pid == 0 {
			// Codex's daemon (and the hooks it runs) has the first
			// TUI's environment, not this session's terminal.
			return
		}
		p = &t.Process
	}
	if p == nil {
		return
	}
	var bundle, app string
	if p.Host != nil {
		bundle, app = p.Host.BundleID, p.Host.AppPath
	}
	exes := make([]string, 0, len(p.Ancestors))
	for _, a := range p.Ancestors {
		exes = append(exes, a.Exe)
	}
	out.Terminal, out.TerminalPane = termid.App(p.Env, bundle, app, exes)
}
