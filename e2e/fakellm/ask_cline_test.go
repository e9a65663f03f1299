package fakellm

import (
	"strings"
	"testing"
)

// Cline's request offers run_commands and ask_question: the ask scenario
// calls ask_question with its two arguments, the quoting scenario replies
// with the dialog's title and choices as text.
func TestClineAskQuestion(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.OpenAIURL + "/chat/completions"
	req := func(scenario string) string {
		return `{"model":"m","stream":false,"tools":[{"type":"function","function":{"name":"run_commands"}},{"type":"function","function":{"name":"ask_question"}}],"messages":[{"role":"user","content":"` + Prompt(scenario) + `"}]}`
	}
	if _, body := post(t, url, req(Ask)); !strings.Contains(body, `"name":"ask_question"`) || !strings.Contains(body, `{\"options\":[\"React\",\"Vue\"],\"question\":\"Which framework?\"}`) {
		t.Fatalf("ask with Cline's tools:\n%s", body)
	}
	if _, body := post(t, url, req(QuoteCline)); !strings.Contains(body, `Cline is asking a question\n\nWhich framework?`) || strings.Contains(body, "tool_calls") {
		t.Fatalf("the quote:\n%s", body)
	}
}
