package reducer

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// play folds payloads of agent the way mew-hook does (ParseFor), one second
// apart.
func playAs(t *testing.T, agent string, payloads ...string) session.HookState {
	t.Helper()
	var h session.HookState
	t0 := time.Unix(1_800_000_000, 0)
	for i, p := range payloads {
		var e Event
		if _, err := ParseFor(agent, []byte(p), &e); err != nil {
			t.Fatalf("payload %d: %v\n%s", i, err, p)
		}
		Fold(&h, &e, t0.Add(secs(i)))
	}
	return h
}

// OpenCode 1.18.33's own events, as its plugin receives them
// (testdata/fixtures/opencode-1.18.33), with the cwd Mew's plugin adds.
const ocSession = `"sessionID":"ses_dd1050279ffe1AzEvDlfFqleqC"`

func ocEvent(typ, props string) string {
	return `{"cwd":"/home/p/proj","type":"` + typ + `","properties":{` + ocSession + props + `}}`
}

var (
	ocCreated = `{"cwd":"/home/p/proj","type":"session.created","properties":{` + ocSession + `,"info":{"id":"ses_dd1050279ffe1AzEvDlfFqleqC","directory":"/home/p/proj","title":"New session"}}}`
	ocBusy    = ocEvent("session.status", `,"status":{"type":"busy"}`)
	ocIdle    = ocEvent("session.status", `,"status":{"type":"idle"}`)
	ocIdle2   = ocEvent("session.idle", ``)
	ocRetry   = ocEvent("session.status", `,"status":{"type":"retry","attempt":1,"message":"Internal Server Error","next":1796084530819}`)
	ocAsked   = ocEvent("permission.asked", `,"id":"per_22efb21da001NZxk6KgNuIINDi","permission":"bash","patterns":["touch made-by-agent"],"metadata":{"command":"touch made-by-agent"},"always":["touch *"],"tool":{"messageID":"msg_1","callID":"call_1"}`)
	ocOnce    = ocEvent("permission.replied", `,"requestID":"per_22efb21da001NZxk6KgNuIINDi","reply":"once"`)
	ocReject  = ocEvent("permission.replied", `,"requestID":"per_22efb21da001NZxk6KgNuIINDi","reply":"reject"`)
	ocAborted = ocEvent("session.error", `,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}`)
	ocAPIErr  = ocEvent("session.error", `,"error":{"name":"APIError","data":{"message":"Bad Request","statusCode":400}}`)
)

func TestOpenCodeTurns(t *testing.T) {
	oc := session.AgentOpenCode
	if h := playAs(t, oc, ocCreated); h.State != session.Idle || h.Cwd != "/home/p/proj" {
		t.Fatalf("session.created: %s cwd %q", h.State, h.Cwd)
	}
	// plain: busy is repeated at every step; idle and session.idle end it.
	if h := playAs(t, oc, ocCreated, ocBusy, ocBusy, ocIdle, ocIdle2); h.State != session.Done || h.Source != "hook:"+TurnIdle {
		t.Fatalf("plain turn: %s from %s, want done", h.State, h.Source)
	}
	h := playAs(t, oc, ocCreated, ocBusy, ocAsked)
	if h.State != session.Waiting || h.Reason != session.ReasonPermission || h.Tool != "bash" || h.ToolDetail != "touch made-by-agent" {
		t.Fatalf("permission.asked: %s(%s) %q %q", h.State, h.Reason, h.Tool, h.ToolDetail)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocAsked, ocOnce); h.State != session.Working || len(h.Pending) != 0 {
		t.Fatalf("allowed once: %s pending %v, want working with nothing pending", h.State, h.Pending)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocAsked, ocOnce, ocBusy, ocIdle, ocIdle2); h.State != session.Done {
		t.Fatalf("allowed, turn over: %s", h.State)
	}
	// Reject (also what Esc on the dialog sends): the person stopped it.
	if h := playAs(t, oc, ocCreated, ocBusy, ocAsked, ocReject, ocIdle, ocIdle2); h.State != session.Idle {
		t.Fatalf("rejected: %s from %s, want idle", h.State, h.Source)
	}
	// esc-slow: MessageAbortedError, then idle twice.
	if h := playAs(t, oc, ocCreated, ocBusy, ocAborted, ocIdle, ocIdle2, ocIdle, ocIdle2); h.State != session.Idle || h.Source != "hook:"+Interrupted {
		t.Fatalf("Esc while working: %s from %s, want idle from the abort", h.State, h.Source)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocAPIErr, ocIdle, ocIdle2); h.State != session.Failed || h.Failure != "APIError" {
		t.Fatalf("API error: %s %q, want failed APIError", h.State, h.Failure)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocAPIErr, ocIdle, ocBusy); h.State != session.Working {
		t.Fatalf("a new turn after a failure: %s", h.State)
	}
	// Retries: still working; given up (idle with no error) is idle, a
	// retry that got through ends done.
	if h := playAs(t, oc, ocCreated, ocBusy, ocRetry); h.State != session.Working {
		t.Fatalf("retrying: %s", h.State)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocRetry, ocRetry, ocIdle, ocIdle2); h.State != session.Idle {
		t.Fatalf("retries cancelled: %s, want idle", h.State)
	}
	if h := playAs(t, oc, ocCreated, ocBusy, ocRetry, ocBusy, ocIdle); h.State != session.Done {
		t.Fatalf("retry went through: %s, want done", h.State)
	}
}

func TestAmpTurns(t *testing.T) {
	amp := session.AgentAmp
	start := `{"type":"agent.start","thread":{"id":"T-7f0c2d1e-1111-4222-8333-944455556666"},"message":"fix the flaky test","cwd":"/home/p/proj"}`
	end := func(status string) string {
		return `{"type":"agent.end","thread":{"id":"T-7f0c2d1e-1111-4222-8333-944455556666"},"status":"` + status + `"}`
	}
	if h := playAs(t, amp, start); h.State != session.Working || h.Title != "fix the flaky test" || h.Cwd != "/home/p/proj" {
		t.Fatalf("agent.start: %s %q %q", h.State, h.Title, h.Cwd)
	}
	for status, want := range map[string]session.State{"done": session.Done, "error": session.Failed, "cancelled": session.Idle} {
		if h := playAs(t, amp, start, end(status)); h.State != want {
			t.Errorf("agent.end %s: %s, want %s", status, h.State, want)
		}
	}
	if h := playAs(t, amp, start, end("someday")); h.State != session.Working || len(h.Unknown) != 1 || h.Unknown[0] != "agent.end" {
		t.Errorf("agent.end with an unknown status: %s unknown %v; want it recorded as unknown, nothing changed", h.State, h.Unknown)
	}
}

// pi's events as Mew's extension forwards them (install/plugin.go), in the
// order pi 0.73.1 sends them (../shared/fixtures/census/pi, run-pi3).
func TestPiRuns(t *testing.T) {
	pi := session.AgentPi
	ev := func(typ, status, more string) string {
		return `{"type":"` + typ + `","cwd":"/home/p/proj","properties":{"sessionID":"0199a1b2-5c3d-7e4f-8a9b-0c1d2e3f4a5b"` + more + `},"status":"` + status + `"}`
	}
	start, run := ev("session_start", "", ""), ev("agent_start", "", "")
	tool := ev("tool_execution_start", "", `,"id":"call_1","permission":"bash"`)
	toolEnd := ev("tool_execution_end", "", `,"id":"call_1","permission":"bash"`)
	end := func(status string) string { return ev("agent_end", status, "") }

	if h := playAs(t, pi, start); h.State != session.Idle || h.Cwd != "/home/p/proj" {
		t.Fatalf("session_start: %s %q", h.State, h.Cwd)
	}
	if h := playAs(t, pi, start, run, tool); h.State != session.Working {
		t.Fatalf("a tool call: %s, want working", h.State)
	}
	// Another extension's dialog on the call (the permission gate's
	// select), as Mew's extension sees it by wrapping ctx.ui.
	shown := ev("dialog_shown", "", `,"id":"call_1","permission":"bash"`)
	closed := ev("dialog_closed", "", `,"id":"call_1","permission":"bash"`)
	if h := playAs(t, pi, start, run, tool, shown); h.State != session.Waiting || h.Reason != session.ReasonPermission {
		t.Errorf("the gate's dialog: %s (%s), want waiting(permission)", h.State, h.Reason)
	}
	if h := playAs(t, pi, start, run, tool, shown, closed); h.State != session.Working {
		t.Errorf("the dialog answered: %s, want working", h.State)
	}
	if h := playAs(t, pi, start, run, tool, shown, closed, toolEnd, end("stop")); h.State != session.Done {
		t.Errorf("the turn after the answer: %s, want done", h.State)
	}
	for status, want := range map[string]session.State{"stop": session.Done, "length": session.Done, "error": session.Failed, "aborted": session.Idle} {
		if h := playAs(t, pi, start, run, tool, toolEnd, end(status)); h.State != want {
			t.Errorf("agent_end %s: %s, want %s", status, h.State, want)
		}
	}
	// Three retries, then the failure: working until the last agent_end.
	seq := []string{start, run, end("retry")}
	for i := 0; i < 3; i++ {
		if h := playAs(t, pi, seq...); h.State != session.Working {
			t.Fatalf("after %d retried attempts: %s, want working", i+1, h.State)
		}
		seq = append(seq, run, end("retry"))
	}
	if h := playAs(t, pi, append(seq, run, end("error"))...); h.State != session.Failed {
		t.Errorf("the last attempt failed: %s", h.State)
	}
	if h := playAs(t, pi, start, run, end("stop"), ev("session_shutdown", "quit", "")); h.State != session.Exited {
		t.Errorf("session_shutdown: %s", h.State)
	}
	if h := playAs(t, pi, start, run, end("someday")); h.State != session.Working || len(h.Unknown) != 1 {
		t.Errorf("agent_end with an unknown stopReason: %s unknown %v; want it recorded as unknown, nothing changed", h.State, h.Unknown)
	}
}

// Gemini CLI 0.61's hook payloads (testdata/fixtures/gemini-cli-0.61.0).
func TestGeminiTurns(t *testing.T) {
	g := session.AgentGemini
	p := func(name, rest string) string {
		return `{"session_id":"a1787f4a-ca95-4222-97e5-0f25ac0a5f5e","cwd":"/home/p/proj","hook_event_name":"` + name + `"` + rest + `}`
	}
	start := p("SessionStart", `,"source":"startup"`)
	before := p("BeforeAgent", `,"prompt":"please mew-bash"`)
	tool := p("BeforeTool", `,"tool_name":"run_shell_command","tool_input":{"command":"touch made-by-agent","description":"Create a marker file"}`)
	note := p("Notification", `,"notification_type":"ToolPermission","message":"Tool Confirm Shell Command requires execution","details":{"type":"exec","command":"touch made-by-agent"}`)
	after := p("AfterTool", `,"tool_name":"run_shell_command","tool_input":{"command":"touch made-by-agent","description":"Create a marker file"},"tool_response":{}`)
	done := p("AfterAgent", `,"prompt":"please mew-bash","prompt_response":"Done.","stop_hook_active":false`)
	end := p("SessionEnd", `,"reason":"exit"`)

	if h := playAs(t, g, start, before); h.State != session.Working || h.Title != "please mew-bash" {
		t.Fatalf("BeforeAgent: %s %q", h.State, h.Title)
	}
	if h := playAs(t, g, start, before, tool); h.State != session.Working {
		t.Fatalf("BeforeTool fires before the dialog: %s, want working", h.State)
	}
	if h := playAs(t, g, start, before, tool, note); h.State != session.Waiting || h.Reason != session.ReasonPermission {
		t.Fatalf("ToolPermission: %s(%s)", h.State, h.Reason)
	}
	if h := playAs(t, g, start, before, tool, note, after); h.State != session.Working || len(h.Pending) != 0 {
		t.Fatalf("allowed, ran: %s pending %v", h.State, h.Pending)
	}
	if h := playAs(t, g, start, before, tool, note, after, done); h.State != session.Done || h.LastMessage != "Done." {
		t.Fatalf("AfterAgent: %s %q", h.State, h.LastMessage)
	}
	if h := playAs(t, g, start, before, done, end, end, end); h.State != session.Exited || h.EventCount != 6 {
		t.Fatalf("SessionEnd three times: %s after %d events", h.State, h.EventCount)
	}
}

func TestParsePluginRefusesWhatIsNotAnEvent(t *testing.T) {
	var e Event
	if err := ParsePlugin(session.AgentOpenCode, []byte(`{"type":"session.idle","properties":{}}`), &e); !errors.Is(err, ErrNoSession) {
		t.Errorf("no session: %v", err)
	}
	if err := ParsePlugin(session.AgentOpenCode, []byte(`[1,2]`), &e); err == nil || !strings.Contains(err.Error(), "not a plugin event") {
		t.Errorf("not an object: %v", err)
	}
	// A kind the table does not know leaves the bare type: an event the
	// reducer records as unknown, never as something else.
	if err := ParsePlugin(session.AgentOpenCode, []byte(ocEvent("session.status", `,"status":{"type":"compacting"}`)), &e); err != nil || e.Name != "session.status" {
		t.Errorf("unknown status: %q %v", e.Name, err)
	}
	// A hostile error name is kept as a short kind, quotes and controls out.
	if err := ParsePlugin(session.AgentOpenCode, []byte(ocEvent("session.error", `,"error":{"name":"Bad\"\n\\Name"}`)), &e); err != nil || errorKind(e.Error) != "BadName" {
		t.Errorf("error name: %q %v", errorKind(e.Error), err)
	}
}
