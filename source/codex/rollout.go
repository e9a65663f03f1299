// Package codex watches Codex sessions from outside: the rollout log Codex
// writes for each session ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl)
// and the Codex processes (the TUI a person looks at, the `codex
// app-server` daemon that runs the turns). Together they are a monitor
// source: one observation per Codex session, by Codex's session id.
//
// What the rollout says (Codex 0.169, measured; see the recordings in
// testdata/fixtures/codex-0.169.0): task_started → working; task_complete →
// done, or failed when it carries an error (an HTTP 500 or a broken stream
// fires no hook at all); turn_aborted → idle (the person pressed Esc). It
// never says that Codex waits on the person: the approval dialog is written
// nowhere on disk (the PermissionRequest hook and the screen see it).
package codex

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Limits that keep a state small whatever a rollout holds.
const (
	maxTitle   = 80
	maxMessage = 400
	maxError   = 120
	maxPath    = 4096
)

// Line is what one rollout line says about the session, when anything.
type Line struct {
	At time.Time
	// Event is the line's kind: task_started, task_complete, turn_aborted,
	// session_meta, turn_context or user_message; "" for lines that say
	// nothing Mew uses.
	Event     string
	SessionID string         // session_meta
	Cwd       string         // session_meta, turn_context
	Error     string         // task_complete with an error: its message
	Message   string         // task_complete: the agent's last message; user_message: the prompt
	Reason    string         // turn_aborted
	Usage     *session.Usage // token_count
	// Reviewer (session_meta): the thread is Codex's auto-reviewer's,
	// which judges one approval request inside its parent's turn.
	Reviewer bool
}

// markers are substrings every line Mew uses contains: lines without any
// (most of a rollout, some of them huge) are skipped without decoding.
var markers = [][]byte{
	[]byte(`"task_started"`), []byte(`"task_complete"`), []byte(`"turn_aborted"`),
	[]byte(`"session_meta"`), []byte(`"turn_context"`), []byte(`"UserMessage"`),
	[]byte(`"token_count"`),
}

// rawLine is the envelope of a rollout line.
type rawLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type rawPayload struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	SessionID        string          `json:"session_id"`
	Cwd              string          `json:"cwd"`
	ThreadSource     string          `json:"thread_source"`
	LastAgentMessage *string         `json:"last_agent_message"`
	Error            json.RawMessage `json:"error"`
	Reason           string          `json:"reason"`
	Item             *struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"item"`
}

// ParseLine reads one line of a rollout file (without its newline). ok is
// false for a line that is not JSON, has no usable time, or says nothing
// Mew uses; such lines change nothing.
func ParseLine(b []byte) (Line, bool) {
	interesting := false
	for _, m := range markers {
		if bytes.Contains(b, m) {
			interesting = true
			break
		}
	}
	if !interesting {
		return Line{}, false
	}
	var raw rawLine
	if json.Unmarshal(b, &raw) != nil {
		return Line{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, raw.Timestamp)
	if err != nil {
		return Line{}, false
	}
	var p rawPayload
	if json.Unmarshal(raw.Payload, &p) != nil {
		return Line{}, false
	}
	l := Line{At: at.UTC()}
	switch raw.Type {
	case "session_meta":
		l.Event, l.SessionID, l.Cwd = "session_meta", p.ID, pathOrNone(p.Cwd)
		// Measured (0.169.0, 0.171.0): with approvals_reviewer =
		// "auto_review" every review writes a rollout of its own, with
		// thread_source "guardian_review" (and source.subagent.other
		// "guardian", parent_thread_id its session's).
		l.Reviewer = p.ThreadSource == "guardian_review"
		if l.SessionID == "" {
			l.SessionID = p.SessionID
		}
	case "turn_context":
		l.Event, l.Cwd = "turn_context", pathOrNone(p.Cwd)
	case "event_msg":
		switch p.Type {
		case "task_started":
			l.Event = p.Type
		case "task_complete":
			l.Event = p.Type
			if p.LastAgentMessage != nil {
				l.Message = text.OneLine(*p.LastAgentMessage, maxMessage)
			}
			l.Error = errorText(p.Error)
		case "turn_aborted":
			l.Event, l.Reason = p.Type, text.OneLine(p.Reason, 40)
		case "token_count":
			if l.Usage = tokenCount(raw.Payload, l.At); l.Usage != nil {
				l.Event = p.Type
			}
		case "item_completed":
			if p.Item == nil || p.Item.Type != "UserMessage" {
				return Line{}, false
			}
			for _, c := range p.Item.Content {
				if c.Text != "" {
					l.Event, l.Message = "user_message", c.Text
					break
				}
			}
		}
	}
	return l, l.Event != ""
}

// errorText is task_complete's error in a few words; "" when there is none
// (absent or null).
func errorText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Message string `json:"message"`
		Info    any    `json:"codex_error_info"`
	}
	if json.Unmarshal(raw, &e) == nil {
		if e.Message != "" {
			return text.OneLine(e.Message, maxError)
		}
		if s, ok := e.Info.(string); ok && s != "" {
			return text.OneLine(s, maxError)
		}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return text.OneLine(s, maxError)
	}
	return "error"
}

// Fold applies one line to a session's log state (pure). The state says
// working from task_started until task_complete (done, or failed with an
// error) or turn_aborted (idle: the person stopped the turn).
func Fold(st *session.LogState, l Line) {
	source := "rollout:" + l.Event
	var next session.State
	switch l.Event {
	case "session_meta", "turn_context":
		if l.Cwd != "" {
			st.Cwd = l.Cwd
		}
		if st.State == "" {
			// A session that has not run a turn yet is idle.
			next = session.Idle
		}
	case "user_message":
		if t := titleFrom(l.Message); t != "" {
			st.Title = t
		}
	case "task_started":
		next = session.Working
		st.Error = ""
	case "task_complete":
		next, st.Error = session.Done, l.Error
		if l.Error != "" {
			next = session.Failed
		}
		if l.Message != "" {
			st.LastMessage = l.Message
		}
	case "turn_aborted":
		next, st.Error = session.Idle, ""
	case "token_count":
		foldUsage(st, l.Usage)
	}
	if next == "" {
		return
	}
	if l.At.After(st.At) {
		st.At = l.At
	}
	if next != st.State || st.Since.IsZero() {
		st.State, st.Since, st.Source = next, l.At, source
	}
}

// titleFrom is the first line of a prompt the person typed.
func titleFrom(prompt string) string {
	p := strings.TrimSpace(prompt)
	if i := strings.IndexAny(p, "\r\n"); i >= 0 {
		p = p[:i]
	}
	return text.OneLine(p, maxTitle)
}

// pathOrNone is s, or "" when it is too long to be a path (not a
// clipped path: a cut one would name another folder).
func pathOrNone(s string) string {
	if len(s) > maxPath {
		return ""
	}
	return s
}

// SessionIDFromName is the session id in a rollout file's name
// (rollout-2026-12-01T00-50-09-<uuid>.jsonl), "" when the name is not one.
func SessionIDFromName(name string) string {
	base := filepath.Base(name)
	if !strings.HasPrefix(base, "rollout-") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	base = strings.TrimSuffix(base, ".jsonl")
	// A UUID is the last 36 characters: 8-4-4-4-12.
	if len(base) < len("rollout-")+36 {
		return ""
	}
	id := base[len(base)-36:]
	if !session.ValidID(id) || strings.Count(id, "-") != 4 || base[len(base)-37] != '-' {
		return ""
	}
	return id
}
