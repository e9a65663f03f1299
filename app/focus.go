package app

import (
	"strings"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/terminal/termid"
)

// The front tab of the terminals that say which one it is, asked only when
// alerts are due (an Apple Event each, the same permission a jump there
// needs). iTerm2 answers its current session's unique id and tty, tab
// separated; Terminal its selected tab's tty.
const (
	iTermFocusScript    = "tell application id \"com.googlecode.iterm2\" to tell current session of current window to return (unique id) & tab & (tty)"
	terminalFocusScript = "tell application id \"com.apple.Terminal\" to return tty of selected tab of front window"
)

// focusScript is the AppleScript that asks the frontmost app where it is,
// "" for an app that cannot say.
func focusScript(bundle string) string {
	switch bundle {
	case board.BundleITerm2:
		return iTermFocusScript
	case board.BundleTerminal:
		return terminalFocusScript
	}
	return ""
}

// parseFocus reads the script's answer into what board.FocusedSessions
// needs; an answer that is not one (an error text, a hostile string) says
// nothing.
func parseFocus(bundle, out string) board.Focus {
	f := board.Focus{App: bundle}
	out = strings.TrimSpace(out)
	switch bundle {
	case board.BundleITerm2:
		id, tty, _ := strings.Cut(out, "\t")
		if termid.ValidITermSession(id) {
			f.ITermSession = id
		}
		if termid.ValidTty("darwin", tty) {
			f.TTY = tty
		}
	case board.BundleTerminal:
		if termid.ValidTty("darwin", out) {
			f.TTY = out
		}
	}
	return f
}
