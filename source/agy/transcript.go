// Package agy reads Antigravity CLI's (agy) transcript of each session its
// hooks reported: the person's prompt, the model's steps and its last
// reply, which agy's hooks do not carry (they have no prompt event, and
// Stop names no message). Unverified: agy is not on npm here, and the
// format is the one published for agy 1.2.16, not a recording.
//
// `~/.gemini/antigravity-cli/brain/<conversation-id>/.system_generated/logs/transcript.jsonl`
// holds one step a line, in order: {"step_index": n, "source":
// "USER_EXPLICIT"|"MODEL"|"SYSTEM", "type": "USER_INPUT"|
// "PLANNER_RESPONSE"|"GENERIC"|"SYSTEM_MESSAGE", "status": "DONE"|…,
// "created_at": RFC 3339, "content": text, "tool_calls": [{"name", "args"}],
// …}. (Its token counts are not summed: only the file's tail is read.) A USER_INPUT begins a turn; a
// PLANNER_RESPONSE with tool calls is followed by their results (GENERIC);
// one without tool calls is the model's reply that ends the turn.
package agy

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Step types and the status of a finished step.
const (
	stepUser     = "USER_INPUT"
	stepPlanner  = "PLANNER_RESPONSE"
	stepResult   = "GENERIC"
	stepSystem   = "SYSTEM_MESSAGE"
	statusDone   = "DONE"
	maxTitle     = 200
	maxLastReply = 2000
)

type step struct {
	Index     *int64            `json:"step_index"`
	Type      string            `json:"type"`
	Status    string            `json:"status"`
	CreatedAt string            `json:"created_at"`
	Content   *string           `json:"content"`
	ToolCalls []json.RawMessage `json:"tool_calls"`
}

// Parse reads transcript lines (the file's tail: a first line cut in the
// middle, or any line that is not a step, is skipped) and returns the
// state they say, and false when no turn is in them. The state is working
// from a USER_INPUT until a finished PLANNER_RESPONSE without tool calls
// (done); a step still running, a tool call and its result are working
// (a call waiting for the person's approval is known only to the screen).
func Parse(data []byte) (session.LogState, bool) {
	var lg session.LogState
	var last int64 = -1
	turn := false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil // the last line, maybe still being written: taken only if it parses
		}
		var s step
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &s) != nil || s.Index == nil || *s.Index <= last {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, s.CreatedAt)
		if err != nil {
			continue
		}
		last = *s.Index
		state, src := session.Working, "transcript:"+s.Type
		switch s.Type {
		case stepUser:
			turn = true
			if s.Content != nil {
				lg.Title = title(*s.Content)
			}
			lg.LastMessage = ""
		case stepPlanner:
			if s.Status == statusDone && len(s.ToolCalls) == 0 {
				state = session.Done
				if s.Content != nil {
					lg.LastMessage = text.OneLine(*s.Content, maxLastReply)
				}
			}
		case stepResult:
		case stepSystem:
			continue // says nothing of the turn
		default:
			continue // a step type this Mew does not know
		}
		if !turn {
			continue
		}
		if s.Status != "" && s.Status != statusDone && state == session.Done {
			state = session.Working
		}
		if state != lg.State {
			lg.State, lg.Since, lg.Source = state, at.UTC(), src
		}
		lg.At = at.UTC()
	}
	if !turn {
		return session.LogState{}, false
	}
	return lg, true
}

// title is a prompt's first line, without the <USER_REQUEST> wrapper agy
// puts around what the person typed.
func title(s string) string {
	if rest, ok := strings.CutPrefix(s, "<USER_REQUEST>"); ok {
		s, _, _ = strings.Cut(rest, "</USER_REQUEST>")
	}
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return text.OneLine(s, maxTitle)
}
