package reducer

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Cline's payloads (3.0.65, cut from the census recording): the session is
// sessionContext.rootSessionId, the event hookName; the main agent's
// agent_id is no subagent's.
func TestParseCline(t *testing.T) {
	const common = `"clineVersion":"","timestamp":"2026-12-01T21:04:53.165Z","taskId":"conv_1796159077940_ehpurh1","sessionContext":{"rootSessionId":"1796159072548_tbvdj"},"workspaceRoots":["/home/p/proj"],"userId":"unknown","agent_id":"agent_1","parent_agent_id":null`
	for _, c := range []struct {
		payload, name, tool, sub string
	}{
		{`{` + common + `,"hookName":"agent_start","taskStart":{"taskMetadata":{}}}`, UserPromptSubmit, "", ""},
		{`{` + common + `,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["touch x"]}},"preToolUse":{"toolName":"run_commands"}}`, PreToolUse, "run_commands", ""},
		{`{` + common + `,"hookName":"tool_result","tool_result":{"id":"call_1","name":"run_commands","output":{"error":"rejected"},"error":"[object Object]"}}`, PostToolUse, "run_commands", ""},
		{`{` + common + `,"hookName":"agent_end","turn":{"outputText":"Done.","status":"completed"}}`, Stop, "", ""},
		{`{` + common + `,"hookName":"agent_error","error":{"name":"Error","message":"fake upstream error 500"}}`, StopFailure, "", ""},
		{`{` + common + `,"hookName":"agent_abort"}`, Interrupted, "", ""},
		{`{` + common + `,"hookName":"session_shutdown"}`, Interrupted, "", ""},
		{`{"hookName":"agent_end","taskId":"conv_2","agent_id":"agent_9","parent_agent_id":"agent_1"}`, Stop, "", "agent_9"},
	} {
		var ev Event
		if _, err := ParseFor(session.AgentCline, []byte(c.payload), &ev); err != nil {
			t.Fatalf("%s: %v", c.payload, err)
		}
		wantID := "1796159072548_tbvdj"
		if c.sub != "" {
			wantID = "conv_2" // no sessionContext: the task
		}
		if ev.Name != c.name || ev.SessionID != wantID || ev.ToolName != c.tool || ev.AgentID != c.sub {
			t.Errorf("%s:\n got %+v", c.payload, ev)
		}
		if c.sub == "" && ev.Cwd != "/home/p/proj" {
			t.Errorf("cwd %q", ev.Cwd)
		}
	}
	var ev Event
	if _, err := ParseFor(session.AgentCline, []byte(`{"hookName":"agent_error","error":{"name":"Error","message":"x"},"sessionContext":{"rootSessionId":"s1"}}`), &ev); err != nil {
		t.Fatal(err)
	}
	var h session.HookState
	Fold(&h, &ev, time.Unix(1796159000, 0))
	if h.Failure != "Error" {
		t.Errorf("failure %q, want the error's name", h.Failure)
	}
	for _, bad := range []string{``, `[]`, `{"hookName":"agent_end"}`, `{"hookName":"agent_end","sessionContext":{"rootSessionId":7}}`, `{"hookName":`} {
		if _, err := ParseFor(session.AgentCline, []byte(bad), &ev); err == nil {
			t.Errorf("%q parsed: %+v", bad, ev)
		} else if bad == `{"hookName":"agent_end"}` && !strings.Contains(err.Error(), "session") {
			t.Errorf("%q: %v, want the missing session named", bad, err)
		}
	}
}

// FuzzParseCline: any bytes as a Cline payload never panic, and a parsed
// event always names a session.
func FuzzParseCline(f *testing.F) {
	f.Add([]byte(`{"hookName":"tool_call","sessionContext":{"rootSessionId":"s"},"tool_call":{"id":"c","name":"run_commands","input":{"commands":["x"]}},"workspaceRoots":["/p"]}`))
	f.Add([]byte(`{"hookName":"agent_error","taskId":"t","error":{"name":"Error"},"sessionContext":null,"workspaceRoots":null}`))
	f.Add([]byte(`{"sessionContext":{"rootSessionId":["x"]},"workspaceRoots":[1,{"a":2}],"tool_result":"str"}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		var ev Event
		if _, err := ParseFor(session.AgentCline, payload, &ev); err == nil && ev.SessionID == "" {
			t.Fatalf("%q parsed with no session: %+v", payload, ev)
		}
	})
}

// Cline's ask_question (3.0.65; the e2e run's payloads) is a question to
// the person whenever it is called (no approval first): its tool_call →
// waiting(question) with the question as the detail, its tool_result (the
// answer, or "[User dismissed the question]" after Esc) → working again.
func TestClineAskQuestion(t *testing.T) {
	const common = `"taskId":"conv_1","sessionContext":{"rootSessionId":"s1"},"workspaceRoots":["/p"],"agent_id":"agent_1","parent_agent_id":null`
	var h session.HookState
	at := time.Unix(1796668000, 0)
	for i, c := range []struct {
		payload string
		state   session.State
		reason  session.Reason
		detail  string
	}{
		{`{` + common + `,"hookName":"agent_start","taskStart":{"taskMetadata":{}}}`, session.Working, "", ""},
		{`{` + common + `,"hookName":"tool_call","iteration":1,"tool_call":{"id":"call_q","name":"ask_question","input":{"options":["React","Vue"],"question":"Which framework?"}}}`, session.Waiting, session.ReasonQuestion, "Which framework?"},
		{`{` + common + `,"hookName":"tool_result","iteration":1,"tool_result":{"id":"call_q","name":"ask_question","input":{"options":["React","Vue"],"question":"Which framework?"},"output":"Vue"}}`, session.Working, "", ""},
		{`{` + common + `,"hookName":"agent_end","turn":{"outputText":"Done.","status":"completed"}}`, session.Done, "", ""},
	} {
		var ev Event
		if _, err := ParseFor(session.AgentCline, []byte(c.payload), &ev); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		Fold(&h, &ev, at.Add(time.Duration(i)*time.Second))
		if h.State != c.state || h.Reason != c.reason || h.ToolDetail != c.detail {
			t.Errorf("%d %s: %s %s %q, want %s %s %q", i, ev.Name, h.State, h.Reason, h.ToolDetail, c.state, c.reason, c.detail)
		}
	}
	// Its options draw no number: no choice is offered from the hooks
	// (an answer types into the screen, whose rules read none).
	var ev Event
	if _, err := ParseFor(session.AgentCline, []byte(`{`+common+`,"hookName":"tool_call","tool_call":{"id":"call_r","name":"ask_question","input":{"options":["React","Vue"],"question":"Which?"}}}`), &ev); err != nil {
		t.Fatal(err)
	}
	Fold(&h, &ev, at.Add(10*time.Second))
	for _, p := range h.Pending {
		if len(p.Options) > 0 {
			t.Errorf("options offered from the hooks: %q", p.Options)
		}
	}
}

// The question written by hand (no encoding/json in mew-hook) is the JSON
// string of what Cline asked, whatever it holds.
func TestClineQuestionIsValidJSON(t *testing.T) {
	for _, q := range []string{"Which framework?", `Use "React" or C:\path?`, "line\none\ttab\x01", "bad \xff utf-8", ""} {
		in, _ := json.Marshal(map[string]any{"question": q, "options": []string{"a", "b"}})
		var out struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
		}
		if err := json.Unmarshal(clineQuestion(in), &out); err != nil || len(out.Questions) != 1 {
			t.Fatalf("%q: %s: %v", q, clineQuestion(in), err)
		}
		if want := strings.ToValidUTF8(q, "\uFFFD"); out.Questions[0].Question != want {
			t.Errorf("%q came back as %q", want, out.Questions[0].Question)
		}
	}
	if got := string(clineQuestion(json.RawMessage(`[1,2]`))); got != `{"questions":[{"question":""}]}` {
		t.Errorf("not an object: %s", got)
	}
}
