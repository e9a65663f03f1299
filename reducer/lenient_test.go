package reducer

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// One field of an unexpected type must not cost the event: the fields that
// parse are kept, the others are named.
func TestWrongTypedFieldKeepsTheRest(t *testing.T) {
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","cwd":5,"tool_name":"Bash",` +
		`"tool_input":{"command":"rm -rf build","description":["not","text"]},"tool_use_id":"t1",` +
		`"permission_mode":{"x":1},"agent_id":null}`
	var ev Event
	ignored, err := ParseLenient([]byte(payload), &ev)
	if err != nil {
		t.Fatalf("ParseLenient: %v", err)
	}
	if ev.SessionID != "s" || ev.Name != PreToolUse || ev.ToolName != "Bash" || ev.ToolUseID != "t1" || ev.Cwd != "" || ev.PermissionMode != "" {
		t.Fatalf("event = %+v", ev)
	}
	if !slices.Equal(ignored, []string{"cwd", "permission_mode"}) {
		t.Fatalf("ignored = %q, want cwd and permission_mode", ignored)
	}
	if _, err := Parse([]byte(payload)); err != nil {
		t.Fatalf("Parse: %v", err)
	}
	h := Apply(session.HookState{}, ev, time.Unix(0, 0))
	if len(h.Pending) != 1 || h.Pending[0].Detail != "rm -rf build" {
		t.Fatalf("pending = %+v, want the Bash call with its command", h.Pending)
	}

	// A Stop whose background task list has one bad entry still ends the
	// turn, and the entries that parse still count.
	stop := `{"session_id":"s","hook_event_name":"Stop","last_assistant_message":"ok","background_tasks":[{"id":"a1","type":"subagent","status":"running"},{"id":7}]}`
	ev = Event{}
	if _, err := ParseLenient([]byte(stop), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Name != Stop || ev.LastMessage != "ok" || len(ev.BackgroundTasks) == 0 || ev.BackgroundTasks[0].ID != "a1" {
		t.Fatalf("stop = %+v", ev)
	}
	if h := Apply(session.HookState{Active: true}, ev, time.Unix(0, 0)); h.State != session.Working || !slices.Equal(h.Subagents, []string{"a1"}) {
		t.Fatalf("after Stop: %s with subagents %q, want working with a1 running", h.State, h.Subagents)
	}

	// A StopFailure error object with a wrongly typed member keeps its kind.
	if got := errorKind([]byte(`{"type":"rate_limit","kind":5}`)); got != "rate_limit" {
		t.Fatalf("errorKind = %q", got)
	}
}

func TestLenientStillRefusesNonObjects(t *testing.T) {
	for _, p := range []string{``, `[]`, `"x"`, `{"session_id":"s"`, `{"session_id":"s"} trailing`, `{"session_id":5}`, `{"session_id":"s",}`} {
		var ev Event
		if _, err := ParseLenient([]byte(p), &ev); err == nil {
			t.Errorf("ParseLenient(%q) = %+v, want an error", p, ev)
		}
	}
}
