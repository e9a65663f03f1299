package terminal

import (
	_ "embed"
	"strings"
)

// itermSession is the one loop over iTerm2's sessions (scripts/): the
// session whose PROPERTY is item 1 of argv, with its tab t and window w.
// It never launches iTerm2. Its three marked lines are filled in by
// ITermScript.
//
//go:embed scripts/iterm-session.applescript
var itermSession string

// ITermScript is the AppleScript that finds the iTerm2 session whose
// property by ("unique ID", "tty") is item 1 of argv and runs found on it
// (AppleScript lines, with s, t and w the session, its tab and window;
// they end in a return). argv are lines run first (to read more of argv).
// Not running, the script returns "notrunning"; no such session,
// "notfound". Every value reaches it through argv (osascript - VALUE…),
// never spliced into its text.
func ITermScript(by string, found []string, argv ...string) string {
	lines := func(indent string, ls []string) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(indent + l + "\n")
		}
		return b.String()
	}
	return strings.NewReplacer(
		"\t-- ARGV\n", lines("\t", argv),
		"PROPERTY", by,
		"\t\t\t\t\t\t-- FOUND\n", lines("\t\t\t\t\t\t", found),
	).Replace(itermSession)
}
