package reducer

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Copilot CLI 1.0.102's camelCase payloads, as the census recorded them
// (testdata/fixtures/copilot-1.0.102/run-cop3/hook-events.jsonl), each
// with the event name Mew's hooks file puts on the command line.
const cpID = `"sessionId":"2fedf538-7bf2-4ab8-9cd7-5b5c6ac56047","timestamp":1796157805002,"cwd":"/home/p/proj"`

var (
	cpStart  = `{` + cpID + `,"source":"new","initialPrompt":"hello mew-slow"}`
	cpPrompt = `{` + cpID + `,"prompt":"please mew-bash"}`
	cpPre    = `{` + cpID + `,"toolName":"bash","toolArgs":{"command":"touch made-by-agent","description":"Create a marker file"}}`
	cpPerm   = `{"hookName":"permissionRequest",` + cpID + `,"toolName":"bash","toolInput":{"command":"touch made-by-agent"},"permissionSuggestions":[]}`
	cpNote   = `{` + cpID + `,"message":"Run command: touch made-by-agent","title":"Permission needed","hook_event_name":"Notification","notification_type":"permission_prompt"}`
	cpPost   = `{` + cpID + `,"toolName":"bash","toolArgs":{"command":"touch made-by-agent","description":"Create a marker file"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`
	cpStop   = `{` + cpID + `,"transcriptPath":"/home/p/.copilot/session-state/2fedf538-7bf2-4ab8-9cd7-5b5c6ac56047/events.jsonl","stopReason":"end_turn","stop_hook_active":false}`
	cpRetry  = `{` + cpID + `,"errorContext":"model_call","recoverable":true,"error":{"message":"fake upstream error 500","name":"Error"}}`
	cpFatal  = `{` + cpID + `,"errorContext":"model_call","recoverable":false,"error":{"message":"bad request","name":"Error"}}`
	cpEnd    = `{` + cpID + `,"reason":"user_exit"}`
)

type cpEvent struct{ name, payload string }

func copilotPlay(t *testing.T, events ...cpEvent) session.HookState {
	t.Helper()
	var h session.HookState
	t0 := time.Unix(1_800_000_000, 0)
	for i, e := range events {
		var ev Event
		if _, err := ParseNamed(session.AgentCopilot, e.name, []byte(e.payload), &ev); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		Fold(&h, &ev, t0.Add(secs(i)))
	}
	return h
}

func TestCopilotEvents(t *testing.T) {
	start, prompt := cpEvent{"sessionStart", cpStart}, cpEvent{"userPromptSubmitted", cpPrompt}
	pre, perm, note := cpEvent{"preToolUse", cpPre}, cpEvent{"permissionRequest", cpPerm}, cpEvent{"notification", cpNote}
	post, stop := cpEvent{"postToolUse", cpPost}, cpEvent{"agentStop", cpStop}
	retry := cpEvent{"errorOccurred", cpRetry}

	if h := copilotPlay(t, start); h.State != session.Idle || h.Cwd != "/home/p/proj" {
		t.Errorf("sessionStart: %s cwd %q, want idle in /home/p/proj", h.State, h.Cwd)
	}
	if h := copilotPlay(t, start, prompt); h.State != session.Working || h.Title != "please mew-bash" {
		t.Errorf("userPromptSubmitted: %s title %q, want working", h.State, h.Title)
	}
	if h := copilotPlay(t, start, prompt, pre); h.State != session.Working {
		t.Errorf("preToolUse: %s, want working", h.State)
	}
	// permissionRequest fires before Copilot's own rules and auto-approval
	// run (issue 35): nobody may be asked, so it makes no wait; the
	// notification that a person is asked does, on the call preToolUse
	// announced.
	if h := copilotPlay(t, start, prompt, pre, perm); h.State != session.Working {
		t.Errorf("permissionRequest alone (Copilot's rules may settle it): %s, want working", h.State)
	}
	h := copilotPlay(t, start, prompt, pre, perm, note)
	if h.State != session.Waiting || h.Reason != session.ReasonPermission || h.ToolDetail != "touch made-by-agent" {
		t.Errorf("permissionRequest + notification: %s/%s %q, want waiting(permission) on the command", h.State, h.Reason, h.ToolDetail)
	}
	if h := copilotPlay(t, start, prompt, pre, note); h.State != session.Waiting || h.ToolDetail != "touch made-by-agent" {
		t.Errorf("notification permission_prompt alone: %s %q, want waiting on the command", h.State, h.ToolDetail)
	}
	if h := copilotPlay(t, start, prompt, note); h.State != session.Waiting || h.Reason != session.ReasonPermission {
		t.Errorf("notification permission_prompt with no call: %s/%s, want waiting(permission)", h.State, h.Reason)
	}
	ask := cpEvent{"notification", `{` + cpID + `,"message":"Copilot has a question","hook_event_name":"Notification","notification_type":"elicitation_dialog"}`}
	if h := copilotPlay(t, start, prompt, ask); h.State != session.Waiting || h.Reason != session.ReasonQuestion {
		t.Errorf("notification elicitation_dialog: %s/%s, want waiting(question)", h.State, h.Reason)
	}
	if h := copilotPlay(t, start, prompt, pre, perm, note, post); h.State != session.Working {
		t.Errorf("postToolUse after the approval: %s, want working", h.State)
	}
	if h := copilotPlay(t, start, prompt, pre, perm, note, post, stop); h.State != session.Done {
		t.Errorf("agentStop: %s, want done", h.State)
	}
	// Each retry fires errorOccurred with recoverable: true: still working,
	// never failed; a successful retry ends in agentStop.
	if h := copilotPlay(t, start, prompt, retry, retry, retry); h.State != session.Working {
		t.Errorf("recoverable errorOccurred ×3: %s, want working", h.State)
	}
	if h := copilotPlay(t, start, prompt, retry, stop); h.State != session.Done {
		t.Errorf("retry then agentStop: %s, want done", h.State)
	}
	if h := copilotPlay(t, start, prompt, cpEvent{"errorOccurred", cpFatal}); h.State != session.Failed {
		t.Errorf("errorOccurred recoverable: false: %s, want failed", h.State)
	}
	if h := copilotPlay(t, start, prompt, stop, cpEvent{"sessionEnd", cpEnd}); h.State != session.Exited {
		t.Errorf("sessionEnd: %s, want exited", h.State)
	}

	var e Event
	if _, err := ParseNamed(session.AgentCopilot, "agentStop", []byte(cpStop), &e); err != nil || e.Name != Stop ||
		e.SessionID != "2fedf538-7bf2-4ab8-9cd7-5b5c6ac56047" || e.TranscriptPath == "" {
		t.Errorf("agentStop parsed as %+v, %v", e, err)
	}
	// The notification's own hook_event_name is Claude's; the command
	// line's name is what Copilot registered it under.
	if _, err := ParseNamed(session.AgentCopilot, "notification", []byte(cpNote), &e); err != nil || e.Name != Notification || e.NotificationType != noteCallPermission {
		t.Errorf("notification parsed as %+v, %v", e, err)
	}
	if _, err := ParseNamed(session.AgentCopilot, "agentStop", []byte(`{"stopReason":"end_turn"}`), &e); err == nil {
		t.Error("no sessionId: parsed")
	}
	for _, ev := range []string{"sessionStart", "notification", "agentStop", "errorOccurred", "sessionEnd"} {
		if !slices.Contains(EventsFor(session.AgentCopilot), ev) {
			t.Errorf("Mew does not register for Copilot's %s", ev)
		}
	}
	if slices.Contains(EventsFor(session.AgentCopilot), "permissionRequest") {
		t.Error("Mew registers for Copilot's permissionRequest, which fires before Copilot's own rules settle the call")
	}
}
