package install

import "fmt"

// entryDrift says what differs between an entry that runs Mew's command
// and the entry Mew writes (another tool's installer rewrote it: a matcher
// narrowed, the timeout dropped or changed); "" when nothing does.
func entryDrift(e foundEntry, want Want) string {
	switch {
	case !e.firesAlways:
		return "a matcher that does not match every call"
	case e.timeout == nil:
		return "no timeout"
	case *e.timeout != float64(want.Timeout):
		return fmt.Sprintf("timeout %v instead of %d", *e.timeout, want.Timeout)
	}
	return ""
}
