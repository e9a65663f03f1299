package combine

import "github.com/mew-dev/mew/session"

// latestUsage is the newest usage report of a session: the statusline's
// (stored on the record) or its log's (Codex's token_count). The shown
// row shares it; nothing changes it in place.
func latestUsage(rec session.Record) *session.Usage {
	u := rec.Usage
	if rec.Log != nil && rec.Log.Usage != nil && (u == nil || rec.Log.Usage.At.After(u.At)) {
		u = rec.Log.Usage
	}
	return u
}
