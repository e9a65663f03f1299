// Package reducer folds agent hook events into a session's HookState. It is
// pure: no I/O and no clock reads; the caller passes the time of the event.
//
// The reducer keeps facts (which tools are pending and which of them wait on
// the person, which subagents run, whether a Stop came since the last prompt)
// and derives the state from those facts after every event. Deriving rather
// than jumping between states keeps out-of-order and missing events from
// leaving a session stuck in a state nothing will clear.
package reducer

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/mailru/easyjson/jlexer"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Claude Code 2.1.x hook event names.
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PermissionRequest  = "PermissionRequest"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	PermissionDenied   = "PermissionDenied"
	Notification       = "Notification"
	Stop               = "Stop"
	StopFailure        = "StopFailure"
	SubagentStart      = "SubagentStart"
	SubagentStop       = "SubagentStop"
	PreCompact         = "PreCompact"
	PostCompact        = "PostCompact"
	SessionEnd         = "SessionEnd"
)

// Events lists every event the reducer acts on; `mew install` registers the
// hook for exactly these.
var Events = []string{
	SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse,
	PostToolUseFailure, PermissionDenied, Notification, Stop, StopFailure,
	SubagentStart, SubagentStop, PreCompact, PostCompact, SessionEnd,
}

// Tools whose call is itself a question to the person.
const (
	toolAskUserQuestion = "AskUserQuestion"
	toolExitPlanMode    = "ExitPlanMode"
	// toolRequestUserInput is Codex's structured question (its hooks see
	// a PreToolUse of it): questions[] with a question and options[] with
	// a label each, as AskUserQuestion's.
	toolRequestUserInput = "request_user_input"
	// Gemini CLI's question (ask_user: Copilot CLI's has the name too,
	// its input another shape) and Qwen Code's (ask_user_question):
	// questions[] as AskUserQuestion's; their plan approval is
	// exit_plan_mode (both).
	toolAskUser           = "ask_user"
	toolQwenAskUser       = "ask_user_question"
	toolExitPlanModeSnake = "exit_plan_mode"
)

// Limits that keep a record small whatever the agent sends.
const (
	maxPayload     = 4 << 20 // bytes of stdin the hook reads at most
	maxText        = 400     // runes kept of a prompt or message
	maxTitle       = 80
	maxDetail      = 120
	maxPending     = 64
	maxSubagents   = 256
	maxUnknown     = 16
	maxFinished    = 64
	maxFieldString = 4096 // bytes of a path-like field kept
	maxOptions     = 9    // a question's options kept (keys 1-9 pick them)
)

// MaxPayload is how many bytes of a payload the hook reads.
const MaxPayload = maxPayload

// ErrNoSession means the payload names no usable session id.
var ErrNoSession = errors.New("payload has no valid session_id")

// Parse decodes a hook payload. It fails on input that is not a JSON object
// or has no session id; unknown events parse fine.
func Parse(payload []byte) (Event, error) {
	var ev Event
	if err := ParseInto(payload, &ev); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// ParseInto is Parse into *ev (the hook keeps its event off the stack).
func ParseInto(payload []byte, ev *Event) error {
	_, err := ParseLenient(payload, ev)
	return err
}

// ParseLenient is ParseInto that also names the fields it left out because
// their values had an unexpected type (the rest of the event is kept).
func ParseLenient(payload []byte, ev *Event) (ignored []string, err error) {
	ignored, err = decodeLenient(payload, ev)
	if err != nil {
		return nil, fmt.Errorf("payload is not a hook event: %w", err)
	}
	if ev.SessionID == "" {
		return ignored, ErrNoSession
	}
	return ignored, nil
}

// inputHash fingerprints tool_input so a PermissionRequest (which carries no
// tool_use_id) can be paired with the PreToolUse of the same call.
func inputHash(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	h := fnv.New64a()
	h.Write(raw)
	return strconv.FormatUint(h.Sum64(), 16)
}

// toolDetail is the one line a person needs to recognise the call, and
// the options of a question (AskUserQuestion's first question: the
// choices Mew offers when no screen shows the dialog).
func toolDetail(tool string, raw json.RawMessage) (string, []string) {
	if len(raw) == 0 {
		return "", nil
	}
	var in toolInput
	if _, err := decodeLenient(raw, &in); err != nil {
		return "", nil
	}
	var options []string
	if toolWait(tool) == session.ReasonQuestion && len(in.Questions) > 0 {
		for _, o := range in.Questions[0].Options {
			if len(options) == maxOptions {
				break
			}
			options = append(options, oneLine(o.Label, maxDetail))
		}
	}
	var s string
	switch {
	case len(in.Questions) > 0:
		s = in.Questions[0].Question
	case in.Command != "":
		s = in.Command
	case in.FilePath != "":
		s = in.FilePath
	case in.Path != "":
		s = in.Path
	case in.URL != "":
		s = in.URL
	case in.Pattern != "":
		s = in.Pattern
	default:
		s = in.Description
	}
	return oneLine(s, maxDetail), options
}

// errorKind reduces StopFailure's error (a string or an object) to a short kind.
func errorKind(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "error"
	}
	// The generated decoders, not json.Unmarshal: that one call would link
	// encoding/json's whole reflection codec into mew-hook (~0.3 MB).
	str := jlexer.Lexer{Data: raw}
	if s := str.String(); str.Error() == nil && s != "" {
		return oneLine(s, 60)
	}
	var obj stopError
	if _, err := decodeLenient(raw, &obj); err == nil {
		if obj.Type != "" {
			return oneLine(obj.Type, 60)
		}
		if obj.Kind != "" {
			return oneLine(obj.Kind, 60)
		}
		if obj.Name != "" {
			return oneLine(obj.Name, 60)
		}
	}
	return "error"
}

// oneLine makes agent text safe to show on one line (see internal/text).
func oneLine(s string, n int) string { return text.OneLine(s, n) }

// decode runs generated code on data. The top-level easyjson package is
// avoided on purpose: it links net/http (see tools/gen-json.sh).
func decode(data []byte, v interface{ UnmarshalEasyJSON(*jlexer.Lexer) }) error {
	l := jlexer.Lexer{Data: data}
	v.UnmarshalEasyJSON(&l)
	return l.Error()
}
