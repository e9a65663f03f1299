package reducer

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// Antigravity CLI's payloads as its published shapes have them (camelCase;
// unverified against a recording): an invocation is a turn.
func TestAgyEvents(t *testing.T) {
	agy := session.AgentAgy
	const conv = `"conversationId":"c0ffee00-1111-4222-8333-944455556666","transcriptPath":"/home/p/.gemini/antigravity-cli/brain/c0ffee00-1111-4222-8333-944455556666/t/transcript.jsonl","cwd":"/home/p/proj"`
	pre := `{` + conv + `,"hookEventName":"PreInvocation","prompt":"fix the test"}`
	tool := `{` + conv + `,"hookEventName":"PreToolUse","toolName":"run_command","toolInput":{"command":"go test ./..."}}`
	post := `{` + conv + `,"hookEventName":"PostToolUse","toolName":"run_command","toolInput":{"command":"go test ./..."}}`
	end := `{` + conv + `,"hookEventName":"PostInvocation"}`
	if h := playAs(t, agy, pre); h.State != session.Working || h.Cwd != "/home/p/proj" || h.Title != "fix the test" {
		t.Fatalf("PreInvocation: %s cwd %q title %q", h.State, h.Cwd, h.Title)
	}
	if h := playAs(t, agy, pre, tool); h.State != session.Working || len(h.Pending) != 1 || h.Pending[0].Tool != "run_command" {
		t.Fatalf("PreToolUse: %s pending %+v", h.State, h.Pending)
	}
	if h := playAs(t, agy, pre, tool, post, end); h.State != session.Done {
		t.Fatalf("PostInvocation: %s, want done", h.State)
	}
	if h := playAs(t, agy, pre, `{`+conv+`,"hookEventName":"Stop"}`); h.State != session.Done {
		t.Fatalf("Stop: %s, want done", h.State)
	}
	var e Event
	if _, err := ParseFor(agy, []byte(pre), &e); err != nil || e.SessionID != "c0ffee00-1111-4222-8333-944455556666" || e.TranscriptPath == "" {
		t.Fatalf("parse: %+v %v", e, err)
	}
	if _, err := ParseFor(agy, []byte(`[1]`), &e); err == nil {
		t.Fatal("not an object: parsed")
	}
	if _, err := ParseFor(agy, []byte(`{"hookEventName":"Stop"}`), &e); err == nil {
		t.Fatal("no conversation id: parsed")
	}
}
