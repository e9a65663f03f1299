package fakellm

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestChatCompletions(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.OpenAIURL + "/chat/completions"
	tools := `"tools":[{"type":"function","function":{"name":"bash"}}]`
	req := func(msgs string) string {
		return `{"model":"fake-model","stream":true,` + tools + `,"messages":[` + msgs + `]}`
	}

	code, body := post(t, url, req(`{"role":"user","content":"`+Prompt(Text)+`"}`))
	if code != 200 || !strings.Contains(body, `"content":"model."`) || !strings.HasSuffix(strings.TrimSpace(body), "data: [DONE]") {
		t.Fatalf("text: %d\n%s", code, body)
	}
	// The shell scenario: a bash call first, then (after its result) text.
	user := `{"role":"user","content":[{"type":"text","text":"` + Prompt(Shell) + `"}]}`
	if _, body = post(t, url, req(user)); !strings.Contains(body, `"name":"bash"`) || !strings.Contains(body, `touch made-by-agent`) || !strings.Contains(body, `"finish_reason":"tool_calls"`) {
		t.Fatalf("shell step 0:\n%s", body)
	}
	if _, body = post(t, url, req(user+`,{"role":"assistant","content":null},{"role":"tool","content":"(no output)"}`)); !strings.Contains(body, `"content":"Done."`) {
		t.Fatalf("shell step 1:\n%s", body)
	}
	// Cline offers run_commands, whose schema takes a list of commands.
	cline := `{"model":"fake-model","stream":true,"tools":[{"type":"function","function":{"name":"read_files"}},{"type":"function","function":{"name":"run_commands"}}],"messages":[` + user + `]}`
	if _, body = post(t, url, cline); !strings.Contains(body, `"name":"run_commands"`) || !strings.Contains(body, `{\"commands\":[\"touch made-by-agent\"]}`) {
		t.Fatalf("shell step 0 for run_commands:\n%s", body)
	}
	if code, _ = post(t, url, req(`{"role":"user","content":"`+Prompt(Error)+`"}`)); code != 400 {
		t.Fatalf("error scenario: HTTP %d", code)
	}
	outage, err := http.Post(url, "application/json", strings.NewReader(req(`{"role":"user","content":"`+Prompt(Outage)+`"}`)))
	if err != nil {
		t.Fatal(err)
	}
	outage.Body.Close()
	if outage.StatusCode != 500 || outage.Header.Get("retry-after-ms") != strconv.FormatInt(OutageRetry.Milliseconds(), 10) {
		t.Fatalf("outage: HTTP %d, retry-after-ms %q", outage.StatusCode, outage.Header.Get("retry-after-ms"))
	}
	flaky := req(`{"role":"user","content":"` + Prompt(Flaky) + `"}`)
	if code, _ = post(t, url, flaky); code != 500 {
		t.Fatalf("flaky, first: HTTP %d", code)
	}
	if code, body = post(t, url, flaky); code != 200 || !strings.Contains(body, "retry") {
		t.Fatalf("flaky, retried: HTTP %d\n%s", code, body)
	}
	// The danger scenario: the command a permission gate asks about.
	danger := `{"role":"user","content":"` + Prompt(Danger) + `"}`
	if _, body = post(t, url, req(danger)); !strings.Contains(body, `rm -rf mew-probe-dir`) || !strings.Contains(body, `"finish_reason":"tool_calls"`) {
		t.Fatalf("danger step 0:\n%s", body)
	}
	if _, body = post(t, url, req(`{"role":"user","content":"`+Prompt(Brief)+`"}`)); !strings.Contains(body, `"content":"Hello `) {
		t.Fatalf("brief:\n%s", body)
	}
	down := req(`{"role":"user","content":"` + Prompt(Down) + `"}`)
	for i := 0; i < 5; i++ {
		if code, _ = post(t, url, down); code != 500 {
			t.Fatalf("down, request %d: HTTP %d, want 500 every time", i, code)
		}
	}
	// No tools offered: OpenCode's title request.
	if _, body = post(t, url, `{"model":"m","stream":false,"messages":[{"role":"user","content":"`+Prompt(Error)+`"}]}`); !strings.Contains(body, "Fake title") {
		t.Fatalf("side request:\n%s", body)
	}
}

func TestGemini(t *testing.T) {
	s, err := Start(DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.GeminiURL + "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]`
	req := func(contents string) string { return `{` + tools + `,"contents":[` + contents + `]}` }
	user := `{"role":"user","parts":[{"text":"<session_context>…</session_context>"},{"text":"` + Prompt(Shell) + `"}]}`

	if _, body := post(t, url, req(user)); !strings.Contains(body, `"functionCall":{"args":{"command":"touch made-by-agent"`) {
		t.Fatalf("shell step 0:\n%s", body)
	}
	after := user + `,{"role":"model","parts":[{"functionCall":{"name":"run_shell_command"}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command"}}]}`
	if _, body := post(t, url, req(after)); !strings.Contains(body, `"text":"Done."`) || !strings.Contains(body, `"finishReason":"STOP"`) {
		t.Fatalf("shell step 1:\n%s", body)
	}
	if code, _ := post(t, url, req(`{"role":"user","parts":[{"text":"`+Prompt(Error)+`"}]}`)); code != 400 {
		t.Fatalf("error scenario: HTTP %d", code)
	}
	count := s.GeminiURL + "/v1beta/models/gemini-2.5-flash:countTokens"
	if code, body := post(t, count, `{}`); code != 200 || !strings.Contains(body, "totalTokens") {
		t.Fatalf("countTokens: %d %s", code, body)
	}
	if code, _ := post(t, s.GeminiURL+"/v1/elsewhere", `{}`); code != 404 {
		t.Fatalf("unknown path: HTTP %d", code)
	}
}

// The quote scenario's reply holds each agent's dialog line; the long one
// has LongLines rows; both are spread over BriefFor, so a screen read sees them running.
func TestQuoteAndLong(t *testing.T) {
	q := decide(turn{scenario: Quote, tools: true}, DefaultTiming)
	for _, line := range []string{"Allow execution of", "△ Permission required", "Do you want to run this command?",
		"Do you want to proceed with this operation?", "[y] Approve  [n] Deny", "⚠️ Dangerous command:"} {
		if !strings.Contains(q.Text, line) {
			t.Errorf("the quote has no %q", line)
		}
	}
	l := decide(turn{scenario: Long, tools: true}, DefaultTiming)
	if n := strings.Count(l.Text, "\n"); n != LongLines || q.Spread == 0 || l.Spread == 0 {
		t.Errorf("long: %d rows, spread %v/%v", n, q.Spread, l.Spread)
	}
}

// The ask scenario calls the question tool the request offers, in that
// tool's shape, and Continue's AskQuestion when it offers none known.
func TestAskUsesTheOfferedQuestionTool(t *testing.T) {
	askTools["test_ask"] = func() map[string]any { return map[string]any{"q": AskQuestion} }
	defer delete(askTools, "test_ask")
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.OpenAIURL + "/chat/completions"
	req := func(tools ...string) string {
		var offered []string
		for _, n := range tools {
			offered = append(offered, `{"type":"function","function":{"name":"`+n+`"}}`)
		}
		return `{"model":"m","stream":true,"tools":[` + strings.Join(offered, ",") + `],"messages":[{"role":"user","content":"` + Prompt(Ask) + `"}]}`
	}
	if _, body := post(t, url, req("bash", "test_ask")); !strings.Contains(body, `"name":"test_ask"`) || !strings.Contains(body, `{\"q\":\"Which framework?\"}`) {
		t.Fatalf("offered test_ask:\n%s", body)
	}
	if _, body := post(t, url, req("bash")); !strings.Contains(body, `"name":"AskQuestion"`) || !strings.Contains(body, `\"options\":[\"React\",\"Vue\"]`) {
		t.Fatalf("no question tool offered:\n%s", body)
	}
}
