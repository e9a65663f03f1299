package app

import (
	"strings"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/terminal/termid"
)

// BundleGhostty is Ghostty's bundle id.
const BundleGhostty = "com.mitchellh.ghostty"

// The front tab of the terminals that say which one it is, asked only when
// alerts are due and only of an app that took Mew's Apple Events in a step
// the person started (focusAsk). iTerm2 answers its current session's
// unique id and tty, Terminal its selected tab's tty, Ghostty its focused
// terminal's tty (a Ghostty newer than 1.3.1; an older one fails, and only
// the app counts). The values are read inside the tell and joined outside
// it: inside `tell application`, `tab` is the app's tab class, and
// `x & tab & y` there gives the word "tab", not a tab character
// (internal/applescript's Lint guards every script).
const (
	iTermFocusScript = `tell application id "com.googlecode.iterm2"
	tell current session of current window
		set sid to unique id
		set stty to tty
	end tell
end tell
return sid & linefeed & stty`
	terminalFocusScript = `tell application id "com.apple.Terminal"
	set stty to tty of selected tab of front window
end tell
return stty`
	ghosttyFocusScript = `tell application id "com.mitchellh.ghostty"
	set stty to tty of focused terminal of selected tab of front window
end tell
return stty`
)

// focusScript is the AppleScript that asks the frontmost app where it is,
// "" for an app that cannot say.
func focusScript(bundle string) string {
	switch bundle {
	case board.BundleITerm2:
		return iTermFocusScript
	case board.BundleTerminal:
		return terminalFocusScript
	case BundleGhostty:
		return ghosttyFocusScript
	}
	return ""
}

// focusAsk is the focus script to send bundle now: none until a step the
// person started (a jump, an answer) reached that app (reached, shared
// through terminal.AppleEvents). Before that, focus is "app only": the
// front app, read without Apple Events. Sent earlier, the check's event
// would show macOS's Automation prompt, and its 2 s bound would kill it:
// the sheet flashing at every alert before the person ever clicked a cat.
func focusAsk(bundle string, reached func(string) bool) string {
	if reached == nil || !reached(bundle) {
		return ""
	}
	return focusScript(bundle)
}

// parseFocus reads the script's answer into what board.FocusedSessions
// needs; an answer that is not one (an error text, a hostile string) says
// nothing.
func parseFocus(bundle, out string) board.Focus {
	f := board.Focus{App: bundle}
	out = strings.TrimSpace(out)
	switch bundle {
	case board.BundleITerm2:
		id, tty, _ := strings.Cut(out, "\n")
		id, tty = strings.TrimSpace(id), strings.TrimSpace(tty)
		if termid.ValidITermSession(id) {
			f.ITermSession = id
		}
		if termid.ValidTty("darwin", tty) {
			f.TTY = tty
		}
	case board.BundleTerminal, BundleGhostty:
		if termid.ValidTty("darwin", out) {
			f.TTY = out
		}
	}
	return f
}

// frontAppWait bounds waiting for the main thread to read the front app.
const frontAppWait = 500 * time.Millisecond

// frontAppNow is the frontmost app when the alert is decided: read on the
// main thread (AppKit only there) through onMain, waited for at most wait;
// a main thread busy for longer leaves last, the app read before. The
// sinks are handed an update before the main thread sees it, so the app
// noted at each update was the previous update's.
func frontAppNow(onMain func(func()), read func() string, last string, wait time.Duration) string {
	ch := make(chan string, 1)
	onMain(func() { ch <- read() })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case b := <-ch:
		return b
	case <-t.C:
		return last
	}
}
