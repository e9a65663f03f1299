package fakellm

import (
	"encoding/json"
	"strings"
	"testing"
)

// OpenCode's question tool gets AskQuestion with AskChoices as options of
// its own shape, and the answer the agent sends back is in the log.
func TestAskOpenCodeQuestion(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.OpenAIURL + "/chat/completions"
	tools := `"tools":[{"type":"function","function":{"name":"bash"}},{"type":"function","function":{"name":"question"}}]`
	_, body := post(t, url, `{"model":"m","stream":false,`+tools+`,"messages":[{"role":"user","content":"`+Prompt(Ask)+`"}]}`)
	var resp struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string } `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(body), &resp); err != nil || len(resp.Choices) != 1 || len(resp.Choices[0].Message.ToolCalls) != 1 {
		t.Fatalf("no one tool call: %v\n%s", err, body)
	}
	call := resp.Choices[0].Message.ToolCalls[0].Function
	var args struct {
		Questions []struct {
			Question, Header string
			Options          []struct{ Label, Description string }
		}
	}
	if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil || call.Name != "question" || len(args.Questions) != 1 {
		t.Fatalf("want one question by the question tool, got %s(%s): %v", call.Name, call.Arguments, err)
	}
	q := args.Questions[0]
	if q.Question != AskQuestion || q.Header == "" || len(q.Header) > 30 || len(q.Options) != len(AskChoices) {
		t.Fatalf("question %+v", q)
	}
	for i, o := range q.Options {
		if o.Label != AskChoices[i] || o.Description == "" {
			t.Errorf("option %d: %+v", i, o)
		}
	}

	answer := `User has answered your questions: "Which framework?"="React".`
	post(t, url, `{"model":"m","stream":false,`+tools+`,"messages":[{"role":"user","content":"`+Prompt(Ask)+`"},`+
		`{"role":"assistant","content":null},{"role":"tool","tool_call_id":"c","content":"`+strings.ReplaceAll(answer, `"`, `\"`)+`"}]}`)
	log := s.Log()
	if got := log[len(log)-1]; got.Why != Ask+"/1" || got.Result != answer {
		t.Fatalf("the answer's request logged as %+v, want %s/1 with %q", got, Ask, answer)
	}
}
