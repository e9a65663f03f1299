package reducer

import (
	"slices"
	"testing"

	"github.com/mew-dev/mew/session"
)

// Antigravity CLI's payloads as its published shapes have them (camelCase;
// unverified against a recording). agy fires SessionStart, PreInvocation and
// PostInvocation around each model call of a turn, and Stop at its end
// (issue 35): an invocation's end is no turn's end (a tool call runs after
// it, and agy fires no PreToolUse).
func TestAgyEvents(t *testing.T) {
	agy := session.AgentAgy
	const conv = `"conversationId":"c0ffee00-1111-4222-8333-944455556666","transcriptPath":"/home/p/.gemini/antigravity-cli/brain/c0ffee00-1111-4222-8333-944455556666/t/transcript.jsonl","cwd":"/home/p/proj"`
	start := `{` + conv + `,"hookEventName":"SessionStart"}`
	pre := `{` + conv + `,"hookEventName":"PreInvocation","prompt":"fix the test"}`
	post := `{` + conv + `,"hookEventName":"PostInvocation"}`
	stop := `{` + conv + `,"hookEventName":"Stop"}`
	if h := playAs(t, agy, start); h.State != session.Idle {
		t.Fatalf("SessionStart: %s, want idle", h.State)
	}
	if h := playAs(t, agy, start, pre); h.State != session.Working || h.Cwd != "/home/p/proj" || h.Title != "fix the test" {
		t.Fatalf("PreInvocation: %s cwd %q title %q", h.State, h.Cwd, h.Title)
	}
	if h := playAs(t, agy, start, pre, post); h.State != session.Working {
		t.Fatalf("PostInvocation (the model asked for a tool): %s, want working", h.State)
	}
	if h := playAs(t, agy, start, pre, post, pre, post, stop); h.State != session.Done {
		t.Fatalf("Stop: %s, want done", h.State)
	}
	for _, e := range AgyIgnored {
		if slices.Contains(EventsFor(agy), e) {
			t.Errorf("%s is registered for agy, which never fires it", e)
		}
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
