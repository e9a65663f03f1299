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

// BundleID is Mew.app's bundle identifier, the one macOS keeps its
// Automation permissions under.
const BundleID = "dev.mew.Mew"

// AutomationRefused is what to say when macOS refused Mew's Apple Events
// to app (errAEEventNotPermitted, -1743). After an update of an ad-hoc
// signed Mew, macOS refuses every event while System Settings still
// shows the switch on (the permission belongs to the old signature):
// only resetting it brings the prompt back.
func AutomationRefused(app string) string {
	return "Mew may not control " + app + ": allow it in System Settings › Privacy & Security › Automation; " +
		"if it is allowed there already (Mew was updated), run `tccutil reset AppleEvents " + BundleID + "` and answer macOS's prompt"
}
