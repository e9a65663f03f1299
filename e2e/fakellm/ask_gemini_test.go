package fakellm

import (
	"strings"
	"testing"
)

// On the Gemini API the ask scenario's first reply is a functionCall of
// ask_user when the request offers it, in its shape; after the answer,
// text.
func TestGeminiAskCallsAskUser(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.GeminiURL + "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
	user := `{"role":"user","parts":[{"text":"` + Prompt(Ask) + `"}]}`
	req := func(contents string) string {
		return `{"tools":[{"functionDeclarations":[{"name":"run_shell_command"},{"name":"ask_user"}]}],"contents":[` + contents + `]}`
	}
	_, body := post(t, url, req(user))
	for _, want := range []string{`"name":"ask_user"`, `"question":"Which framework?"`, `"type":"choice"`, `"label":"React"`, `"label":"Vue"`, `"description":"Use Vue"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("ask step 0 has no %s:\n%s", want, body)
		}
	}
	after := user + `,{"role":"model","parts":[{"functionCall":{"name":"ask_user"}}]},{"role":"user","parts":[{"functionResponse":{"name":"ask_user"}}]}`
	if _, body := post(t, url, req(after)); !strings.Contains(body, `"text":"Done."`) {
		t.Fatalf("ask step 1:\n%s", body)
	}
}

// Qwen Code's ask_user_question: the chat completions call in its shape.
func TestQwenAskCallsAskUserQuestion(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	body := `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"run_shell_command"}},` +
		`{"type":"function","function":{"name":"ask_user_question"}}],"messages":[{"role":"user","content":"` + Prompt(Ask) + `"}]}`
	_, got := post(t, s.OpenAIURL+"/chat/completions", body)
	for _, want := range []string{`"name":"ask_user_question"`, `\"header\":\"Framework\"`, `\"label\":\"Vue\"`, `\"question\":\"Which framework?\"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("no %s:\n%s", want, got)
		}
	}
}
