package fakeresponses

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func request(t *testing.T, tools bool, items ...Item) []byte {
	t.Helper()
	req := map[string]any{"model": "gpt-5.1-codex", "stream": true, "input": items}
	if tools {
		req["tools"] = []any{map[string]any{"type": "function", "name": "exec_command"}}
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func user(text string) Item {
	it := Item{Type: "message", Role: "user"}
	it.Content = append(it.Content, struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"input_text", text})
	return it
}

func decide(t *testing.T, body []byte) Reply {
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return Decide(req, DefaultTiming)
}

func TestDecide(t *testing.T) {
	env := user("<environment_context>mew-e2e is not a marker without a name</environment_context>")
	if r := decide(t, request(t, true, env, user(Prompt(Shell)))); r.Kind != "call" || r.Call != "exec_command" || !strings.Contains(r.Args, `"require_escalated"`) || r.Why != "shell/0" {
		t.Fatalf("shell step 0: %+v", r)
	}
	out := Item{Type: "function_call_output", CallID: "call_1"}
	if r := decide(t, request(t, true, env, user(Prompt(Shell)), Item{Type: "function_call"}, out)); r.Kind != "text" || r.Why != "shell/1" {
		t.Fatalf("shell step 1: %+v", r)
	}
	if r := decide(t, request(t, false, user("Generate a title. User prompt:\n"+Prompt(Shell)))); r.Why != "side" {
		t.Fatalf("title request: %+v", r)
	}
	if r := decide(t, request(t, true, user(Prompt(Error)))); r.Kind != "error" || r.Status != 500 {
		t.Fatalf("error: %+v", r)
	}
	// The tools scenario: ToolCalls plain calls, one per step, then text.
	items := []Item{env, user(Prompt(Tools))}
	for step := range ToolCalls {
		r := decide(t, request(t, true, items...))
		if r.Kind != "call" || strings.Contains(r.Args, "require_escalated") || r.Why != fmt.Sprintf("tools/%d", step) {
			t.Fatalf("tools step %d: %+v", step, r)
		}
		items = append(items, Item{Type: "function_call"}, Item{Type: "function_call_output"})
	}
	if r := decide(t, request(t, true, items...)); r.Kind != "text" {
		t.Fatalf("tools after %d calls: %+v", ToolCalls, r)
	}
	// The newest marked prompt decides.
	if r := decide(t, request(t, true, user(Prompt(Error)), user(Prompt(Text)))); r.Why != "text/0" {
		t.Fatalf("newest prompt: %+v", r)
	}
}

// Codex's auto-review request (its shape as measured, cut down): the
// reviewer allows the shell scenario's call and denies the denied one's,
// and neither is taken for a step of the turn.
func TestDecideReview(t *testing.T) {
	review := func(prompt string) []byte {
		req := map[string]any{"model": "gpt-5.1-codex", "stream": true,
			"tools": []any{map[string]any{"type": "function", "name": "exec_command"}},
			"input": []Item{
				user("You are judging one planned coding-agent action."),
				user(">>> TRANSCRIPT START"), user("[1] Retained source order: 0\nuser: " + prompt),
				user(`[2] tool exec_command call: {"cmd":"touch made-by-codex"}`),
			},
			"text": map[string]any{"format": map[string]any{"type": "json_schema", "name": "codex_output_schema",
				"schema": map[string]any{"type": "object", "required": []string{"outcome"},
					"properties": map[string]any{"outcome": map[string]any{"type": "string", "enum": []string{"allow", "deny"}}}}}},
		}
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	verdict := func(r Reply) string {
		var v struct {
			Outcome string `json:"outcome"`
		}
		if r.Kind != "text" || json.Unmarshal([]byte(r.Text), &v) != nil {
			t.Fatalf("review reply is no JSON verdict: %+v", r)
		}
		return v.Outcome
	}
	if r := decide(t, review(Prompt(Shell))); verdict(r) != "allow" || r.Why != "review/allow" {
		t.Fatalf("shell: %+v", r)
	}
	if r := decide(t, review(Prompt(Denied))); verdict(r) != "deny" || r.Why != "review/deny" {
		t.Fatalf("denied: %+v", r)
	}
	// The title request asks for a schema too, without "outcome".
	title := map[string]any{"model": "m", "input": []Item{user(Prompt(Shell))},
		"text": map[string]any{"format": map[string]any{"type": "json_schema",
			"schema": map[string]any{"properties": map[string]any{"title": map[string]any{"type": "string"}}}}}}
	b, _ := json.Marshal(title)
	if r := decide(t, b); r.Why != "side" {
		t.Fatalf("title request: %+v", r)
	}
	// The denied scenario's turn is the shell scenario's.
	if r := decide(t, request(t, true, user(Prompt(Denied)))); r.Kind != "call" || !strings.Contains(r.Args, "require_escalated") {
		t.Fatalf("denied step 0: %+v", r)
	}
}

func TestServerStreamsAndFails(t *testing.T) {
	s, err := Start(Timing{Slow: 300 * time.Millisecond, Chunk: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(body []byte) *http.Response {
		t.Helper()
		resp, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	events := func(resp *http.Response) []string {
		defer resp.Body.Close()
		var kinds []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if k, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				kinds = append(kinds, k)
			}
		}
		return kinds
	}
	got := strings.Join(events(post(request(t, true, user(Prompt(Text))))), " ")
	if got != "response.created response.output_item.added response.output_text.delta response.output_text.delta response.output_text.delta response.output_text.delta response.output_text.delta response.output_item.done response.completed" {
		t.Fatalf("text: %s", got)
	}
	if got := strings.Join(events(post(request(t, true, user(Prompt(Shell))))), " "); got != "response.created response.output_item.done response.completed" {
		t.Fatalf("call: %s", got)
	}
	start := time.Now()
	if n := len(events(post(request(t, true, user(Prompt(Slow)))))); n < 6 || time.Since(start) < 250*time.Millisecond {
		t.Fatalf("slow: %d events in %v", n, time.Since(start))
	}
	resp := post(request(t, true, user(Prompt(Error))))
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Fatalf("error: HTTP %d", resp.StatusCode)
	}
	if resp, _ := http.Get(s.URL + "/models"); resp == nil || resp.StatusCode != 404 {
		t.Fatal("unknown paths are not 404")
	}
	log := s.Log()
	if len(log) != 5 || !log[0].Finished || log[3].Status != 500 {
		t.Fatalf("log %+v", log)
	}
}

// The ask scenario calls request_user_input only when Codex offers it (the
// feature default_mode_request_user_input), with a question's options.
func TestDecideAsk(t *testing.T) {
	if r := decide(t, request(t, true, user(Prompt(Ask)))); r.Kind != "text" || r.Text != NoAskTool {
		t.Fatalf("without the tool: %+v", r)
	}
	var req Request
	if err := json.Unmarshal(request(t, true, user(Prompt(Ask))), &req); err != nil {
		t.Fatal(err)
	}
	req.Tools = append(req.Tools, struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}{"function", "request_user_input"})
	r := Decide(req, DefaultTiming)
	if r.Kind != "call" || r.Call != "request_user_input" || !strings.Contains(r.Args, `"label":"Vue"`) {
		t.Fatalf("with the tool: %+v", r)
	}
	if r := decide(t, request(t, true, user(Prompt(Quote)))); r.Text != QuotedDialog {
		t.Fatalf("quote: %+v", r)
	}
}
