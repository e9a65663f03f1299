package jump

import (
	_ "embed"

	"github.com/mew-dev/mew/terminal"
)

// The AppleScript programs a plan can run, in scripts/ (iTerm2's from
// terminal.ITermScript, the loop it shares with answer). They are
// constants: every value (a tty, a session id, a folder) reaches them as
// `argv`, passed to `osascript -` as separate arguments, and is never
// spliced into script text. Each prints "ok" when it focused its target,
// or a word saying why not; an application that is not running is never
// launched by them.

// scriptTerminalTab selects the Terminal.app tab whose tty is item 1 of
// argv, raises its window and activates Terminal.
//
//go:embed scripts/terminal-tab.applescript
var scriptTerminalTab string

// scriptGhosttyByTty focuses the Ghostty terminal (split) whose tty is item
// 1 of argv. The terminal's tty property is newer than Ghostty 1.3.1 (it is
// on Ghostty's main branch, not in a release yet): on older versions this
// script fails and the plan falls back to the working directory.
//
//go:embed scripts/ghostty-by-tty.applescript
var scriptGhosttyByTty string

// scriptGhosttyByCwd focuses the one Ghostty terminal whose working
// directory is item 1 of argv (Ghostty 1.3+). Two or more matches are
// ambiguous: it focuses none of them rather than guess.
//
//go:embed scripts/ghostty-by-cwd.applescript
var scriptGhosttyByCwd string

// selectITermSession selects the iTerm2 session found (split pane) with
// its tab and window, and activates iTerm2.
var selectITermSession = []string{"select w", "select t", "select s", "activate", `return "ok"`}

// Scripts lists every script a plan may use, by name (for tests and for
// the dry-run output).
var Scripts = map[string]string{
	"terminal-tab": scriptTerminalTab,
	// The iTerm2 session whose unique ID, or whose tty, is item 1 of argv.
	"iterm-by-id":    terminal.ITermScript("unique ID", selectITermSession),
	"iterm-by-tty":   terminal.ITermScript("tty", selectITermSession),
	"ghostty-by-tty": scriptGhosttyByTty,
	"ghostty-by-cwd": scriptGhosttyByCwd,
}
