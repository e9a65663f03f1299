package combine

import (
	"strings"

	"github.com/mew-dev/mew/session"
)

// headless says whether no person attends the session (`claude -p`, an SDK
// app): the hook saw it at SessionStart (Claude Code's environment says
// so), or Claude Code's registry names an SDK entrypoint. Such a session
// is listed, but never as needing you (session.Shown.NeedsYou): nobody is
// at a terminal to go to, and the program that runs it gets the answer.
func headless(rec session.Record) bool {
	if p := rec.Process; p != nil && p.Headless {
		return true
	}
	r := rec.Registry
	return r != nil && strings.HasPrefix(r.Entrypoint, "sdk-")
}
