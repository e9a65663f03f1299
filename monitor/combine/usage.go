package combine

import (
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// latestUsage is the newest usage report of a session: the statusline's
// (stored on the record) or its log's (Codex's token_count). It is a copy
// with its texts made inert: a session file anyone can write names them.
func latestUsage(rec session.Record) *session.Usage {
	u := rec.Usage
	if rec.Log != nil && rec.Log.Usage != nil && (u == nil || rec.Log.Usage.At.After(u.At)) {
		u = rec.Log.Usage
	}
	if u == nil {
		return nil
	}
	c := *u
	c.Model, c.Source, c.Account = text.OneLine(c.Model, 64), text.OneLine(c.Source, 40), text.OneLine(c.Account, 32)
	return &c
}
