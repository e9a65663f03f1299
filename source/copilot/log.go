// Package copilot is the GitHub Copilot CLI source: each open session's
// log, $COPILOT_HOME/session-state/<uuid>/events.jsonl (one JSON object a
// line: type, timestamp, data), read where it says more than the hooks and
// the screen. Measured on Copilot CLI 1.0.102
// (testdata/fixtures/copilot-1.0.102/run-cop3/session-events.txt):
//
//   - permission.completed says how the dialog ended: approved → working,
//     cancelled (Esc) → the turn is over (then abort): no hook fires;
//   - session.error is the failure after the retries (no hook reports it:
//     each retry's errorOccurred is recoverable);
//   - hook.start of agentStop is written before any hook runs (Copilot
//     runs hooks one after another and waits for each), the turn's end as
//     early as Copilot says it;
//   - session.shutdown is the exit.
//
// The session's id is the folder's name, the same id the hooks carry
// (sessionId), so the monitor joins them (monitor/identity rule 1); the
// process is the one that holds the folder's inuse.<pid>.lock.
package copilot

import (
	"encoding/json"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// line is the part of an events.jsonl line the source reads.
type line struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      struct {
		HookType string `json:"hookType"`
		Result   struct {
			Kind string `json:"kind"`
		} `json:"result"`
		Message string `json:"message"`
		Context struct {
			Cwd string `json:"cwd"`
		} `json:"context"` // session.start
		Content string `json:"content"` // user.message: the prompt as typed
	} `json:"data"`
}

// Folder folds one session's log, line by line, remembering what a line
// alone does not say.
type Folder struct {
	// hooked: the log has shown a hook.start, so Copilot runs hooks here
	// and writes agentStop's hook.start for a turn that succeeded. Then
	// assistant.turn_end says nothing of how the turn ended: after the
	// last retry of an API error it comes before session.error (30 ms
	// in the fixture, 0.5-0.6 s on a loaded machine), and read as done it
	// showed done before failed.
	hooked bool
	// replied: this round (since its turn_start) wrote an
	// assistant.message; refused: a permission in it was refused (Esc,
	// denied). Without hooks turn_end is the log's only end of a turn,
	// but a round that failed (the last retry of an API error, whose
	// session.error comes after its turn_end) has no reply, and a refused
	// call's turn_end comes before the abort: neither is done.
	replied, refused bool
}

// Fold folds one line of the log into st and reports whether it bore on
// the state. Lines that do not parse, and kinds that say nothing of the
// state (hook.end, assistant.message, tool.execution_complete, …), change
// nothing: only a line that decides moves st.At, so an older line never
// outweighs a newer hook.
func (f *Folder) Fold(st *session.LogState, raw []byte) bool {
	var l line
	if json.Unmarshal(raw, &l) != nil || l.Timestamp.IsZero() {
		return false
	}
	state, src := session.State(""), l.Type
	switch l.Type {
	case "session.start", "session.resume":
		state = session.Idle
		if l.Data.Context.Cwd != "" {
			st.Cwd = text.Truncate(l.Data.Context.Cwd, 4096)
		}
	case "user.message", "assistant.turn_start", "tool.execution_start":
		state = session.Working
		if l.Type != "tool.execution_start" {
			f.replied, f.refused = false, false
		}
		if l.Type == "user.message" && l.Data.Content != "" {
			st.Title = text.OneLine(l.Data.Content, 80)
		}
	case "permission.completed":
		src += ":" + l.Data.Result.Kind
		switch l.Data.Result.Kind {
		case "approved":
			state = session.Working
		default: // cancelled (Esc; "Session aborted"), denied: nothing waits
			state = session.Idle
			f.refused = true
		}
	case "assistant.message":
		f.replied = true
		return false
	case "assistant.turn_end":
		// Also between two rounds of one turn (a tool's result, then the
		// next request: turn_start follows in the same millisecond).
		if f.hooked || !f.replied || f.refused {
			return false // agentStop, session.error or abort says how it ended
		}
		state = session.Done // no hooks: nothing else in the log will
	case "hook.start":
		f.hooked = true
		if l.Data.HookType != "agentStop" {
			return false
		}
		state, src = session.Done, "hook.start:agentStop"
	case "abort":
		state = session.Idle
	case "session.error":
		state = session.Failed
		st.Error = text.OneLine(l.Data.Message, 200)
	case "session.shutdown":
		state = session.Exited
	default:
		return false
	}
	if state != session.Failed {
		st.Error = ""
	}
	// Only agentStop is final: Copilot fires it for a turn that succeeded
	// (none after an error or an Esc), while turn_end also ends each round.
	st.Final = src == "hook.start:agentStop"
	if state != st.State {
		st.Since = l.Timestamp
	}
	st.State, st.Source, st.At = state, "events:"+src, l.Timestamp
	return true
}
