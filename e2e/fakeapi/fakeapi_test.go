package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// reminder is the kind of text Claude Code puts in the first user message.
const reminder = "<system-reminder>\nAttribution for git commits ... Use ToolSearch, Bash, Agent ... please\n</system-reminder>\n"

var loopTools = []map[string]any{{"name": "Agent"}, {"name": "AskUserQuestion"}, {"name": "Bash"}, {"name": "Read"}}

func request(t *testing.T, stream bool, tools []map[string]any, msgs ...any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"model": "claude-opus-5-5", "stream": stream, "max_tokens": 1000,
		"system": []any{map[string]any{"type": "text", "text": "You are Claude Code"}}, "tools": tools, "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func user(blocks ...any) map[string]any { return map[string]any{"role": "user", "content": blocks} }
func text(s string) map[string]any      { return map[string]any{"type": "text", "text": s} }
func toolResult() map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
}
func assistantTool(name string) map[string]any {
	return map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": name, "input": map[string]any{}}}}
}

func decide(t *testing.T, body []byte) Reply {
	t.Helper()
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return Decide(req, DefaultTiming)
}

func TestDecideFollowsTheScenarioStepByStep(t *testing.T) {
	first := user(text(reminder), text(Prompt(Bash)))
	r := decide(t, request(t, true, loopTools, first))
	if r.Kind != "tool_use" || r.Tool != "Bash" || r.Why != "bash/0" {
		t.Fatalf("step 0: %+v", r)
	}
	// Claude Code may put a mid-conversation system turn after the prompt.
	sys := map[string]any{"role": "system", "content": "# Environment ..."}
	r = decide(t, request(t, true, loopTools, first, sys, assistantTool("Bash"), user(toolResult())))
	if r.Kind != "text" || r.Why != "bash/1" {
		t.Fatalf("step 1: %+v", r)
	}
}

func TestDecideEveryScenario(t *testing.T) {
	cases := map[string]string{Text: "text", Bash: "tool_use Bash", Ask: "tool_use AskUserQuestion",
		Plan: "tool_use ExitPlanMode", Agent: "tool_use Agent", Subtask: "text Subtask finished.",
		Slow: "slow text", Question: "text I fixed the bug. Would you like me to add a regression test?",
		Quote: "text The dialog you saw reads:", Agents2: "tool_use Agent", SubBash: "tool_use Bash", Fail: "error 400"}
	for name, want := range cases {
		r := decide(t, request(t, true, loopTools, user(text(Prompt(name)))))
		if got := summary(r); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if r := decide(t, request(t, true, loopTools, user(text(Prompt(Subtask))))); r.Delay != DefaultTiming.Subtask {
		t.Errorf("subtask delay %v", r.Delay)
	}
}

// A prompt whose request failed has no reply: Claude Code sends it with the
// next one in one user message, and the newest marker decides.
func TestDecideNewestMarkerOfAMergedPrompt(t *testing.T) {
	r := decide(t, request(t, true, loopTools, user(text(Prompt(Fail)), text(Prompt(Slow)))))
	if r.Why != "slow/0" {
		t.Errorf("two prompts in one message: %+v, want the slow scenario", r)
	}
	r = decide(t, request(t, true, loopTools, user(text(Prompt(Fail)+"\n"+Prompt(Text)))))
	if r.Why != "text/0" {
		t.Errorf("two prompts in one block: %+v, want the text scenario", r)
	}
}

// The two-subagent scenario starts a Subtask and a SubBash, then ends.
func TestDecideTwoSubagents(t *testing.T) {
	first := user(text(Prompt(Agents2)))
	var whys []string
	msgs := []any{first}
	for step := 0; step < 3; step++ {
		r := decide(t, request(t, true, loopTools, msgs...))
		whys = append(whys, summary(r))
		if r.Kind == "tool_use" {
			if sub, _ := r.Input["prompt"].(string); !strings.Contains(sub, []string{Subtask, SubBash}[step]) {
				t.Errorf("step %d starts %q", step, sub)
			}
		}
		msgs = append(msgs, assistantTool("Agent"), user(toolResult()))
	}
	if got := strings.Join(whys, " / "); got != "tool_use Agent / tool_use Agent / text Done." {
		t.Errorf("steps: %s", got)
	}
}

// A marker in a reminder-like text that is not the scenario syntax, or no
// marker at all, gets no scripted tool call.
func TestDecideWithoutMarker(t *testing.T) {
	r := decide(t, request(t, true, loopTools, user(text(reminder), text("please bash"))))
	if r.Kind != "text" || r.Why != "unscripted" {
		t.Fatalf("%+v", r)
	}
	r = decide(t, request(t, true, loopTools, user(text("mew-e2e-"))))
	if r.Why != "unscripted" {
		t.Fatalf("%+v", r)
	}
}

// The subagent's report comes back as a new prompt with a task
// notification: acknowledged, nothing new started.
func TestDecideTaskNotification(t *testing.T) {
	msgs := []any{user(text(Prompt(Agent))), assistantTool("Agent"), user(toolResult()),
		map[string]any{"role": "assistant", "content": "Done."},
		user(text("<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>"))}
	r := decide(t, request(t, true, loopTools, msgs...))
	if r.Kind != "text" || r.Why != "task-notification" {
		t.Fatalf("%+v", r)
	}
	// A new marked prompt after it starts the new scenario.
	msgs = append(msgs, map[string]any{"role": "assistant", "content": "Noted."}, user(text(Prompt(Ask))))
	if r := decide(t, request(t, true, loopTools, msgs...)); r.Tool != "AskUserQuestion" {
		t.Fatalf("%+v", r)
	}
}

// Side queries (no agent-loop tools) never get a scenario's tool call, even
// when they quote the prompt.
func TestDecideSideQuery(t *testing.T) {
	r := decide(t, request(t, false, nil, user(text("Write a title for: "+Prompt(Bash)))))
	if r.Kind != "text" || r.Why != "side" {
		t.Fatalf("%+v", r)
	}
}

// sse reads a stream into its events, checking the wire format.
func sse(t *testing.T, body io.Reader) []map[string]any {
	t.Helper()
	var events []map[string]any
	sc := bufio.NewScanner(body)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var ev map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
			if ev["type"] != name {
				t.Fatalf("event %q carries type %v", name, ev["type"])
			}
			events = append(events, ev)
		case line == "":
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	return events
}

func post(t *testing.T, url string, body []byte) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestServerStreamsAToolUse(t *testing.T) {
	s, err := Start(DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %s is not loopback", s.URL)
	}
	resp := post(t, s.URL+"/v1/messages?beta=true", request(t, true, loopTools, user(text(Prompt(Bash)))))
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := sse(t, resp.Body)
	var types []string
	partial := ""
	for _, ev := range events {
		types = append(types, ev["type"].(string))
		if d, ok := ev["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			partial += d["partial_json"].(string)
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("events:\n%s\nwant:\n%s", got, want)
	}
	var input map[string]any
	if err := json.Unmarshal([]byte(partial), &input); err != nil || input["command"] != "touch made-by-claude" {
		t.Fatalf("tool input %q: %v", partial, err)
	}
	start := events[0]["message"].(map[string]any)
	usage := start["usage"].(map[string]any)
	for _, k := range []string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		if _, ok := usage[k]; !ok {
			t.Errorf("message_start usage lacks %s", k)
		}
	}
	md := events[len(events)-2]
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Errorf("stop_reason %v", md["delta"])
	}
	if _, ok := md["usage"].(map[string]any)["output_tokens"]; !ok {
		t.Error("message_delta has no output_tokens")
	}
	log := s.Log()
	if len(log) != 1 || !log[0].Finished || log[0].Why != "bash/0" {
		t.Fatalf("log %+v", log)
	}
}

func TestServerWholeMessageAndCountTokens(t *testing.T) {
	s, err := Start(DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp := post(t, s.URL+"/v1/messages", request(t, false, loopTools, user(text(Prompt(Text)))))
	var msg map[string]any
	json.NewDecoder(resp.Body).Decode(&msg)
	resp.Body.Close()
	if msg["type"] != "message" || msg["stop_reason"] != "end_turn" {
		t.Fatalf("%v", msg)
	}
	resp = post(t, s.URL+"/v1/messages/count_tokens", request(t, false, loopTools, user(text("hi"))))
	var ct map[string]any
	json.NewDecoder(resp.Body).Decode(&ct)
	resp.Body.Close()
	if n, ok := ct["input_tokens"].(float64); !ok || n <= 0 {
		t.Fatalf("%v", ct)
	}
}

func TestServerAnswersAnythingElseWith404(t *testing.T) {
	s, err := Start(DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, path := range []string{"/v1/models", "/api/hello", "/v1/messages/batches"} {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Type  string `json:"type"`
			Error struct{ Type, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 404 || e.Type != "error" || e.Error.Type != "not_found_error" || !strings.Contains(e.Error.Message, path) {
			t.Errorf("%s: %d %+v", path, resp.StatusCode, e)
		}
	}
	resp := post(t, s.URL+"/v1/messages", []byte("{not json"))
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("bad body: %d", resp.StatusCode)
	}
}

// The slow reply keeps streaming until the client hangs up (Esc), and the
// server notices.
func TestServerSlowReplyStopsWhenTheClientGoes(t *testing.T) {
	s, err := Start(Timing{Slow: time.Minute, SlowChunk: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp := post(t, s.URL+"/v1/messages", request(t, true, loopTools, user(text(Prompt(Slow)))))
	br := bufio.NewReader(resp.Body)
	deltas := 0
	for deltas < 5 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, "text_delta") {
			deltas++
		}
	}
	resp.Body.Close()
	time.Sleep(100 * time.Millisecond)
	if l := s.Log(); len(l) != 1 || l[0].Finished {
		t.Fatalf("slow reply marked finished after the client left: %+v", l)
	}
}
