package fakellm

import (
	"strings"
	"testing"
)

// The plan scenario calls exit_plan_mode with its plan, then replies.
func TestPlanCallsExitPlanMode(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := func(extra string) string {
		return `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"ask_user_question"}},` +
			`{"type":"function","function":{"name":"exit_plan_mode"}}],"messages":[{"role":"user","content":"` + Prompt(Plan) + `"}` + extra + `]}`
	}
	if _, got := post(t, s.OpenAIURL+"/chat/completions", req("")); !strings.Contains(got, `"name":"exit_plan_mode"`) || !strings.Contains(got, `Create the marker file`) {
		t.Fatalf("plan step 0:\n%s", got)
	}
	if _, got := post(t, s.OpenAIURL+"/chat/completions", req(`,{"role":"tool","content":"User approved."}`)); !strings.Contains(got, `"content":"Done."`) {
		t.Fatalf("plan step 1:\n%s", got)
	}
}
