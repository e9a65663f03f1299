package fakellm

import (
	"encoding/json"
	"strings"
	"testing"
)

// A request offering Copilot CLI's ask_user gets a call of it in the shape
// its schema (1.0.102) requires: message, and requestedSchema.properties
// with one single-choice field (type string, enum) of AskChoices. The
// askbrief scenario asks the same, then trickles its reply.
func TestAskCopilot(t *testing.T) {
	req := chatRequest{}
	json.Unmarshal([]byte(`{"tools":[{"function":{"name":"bash"}},{"function":{"name":"ask_user"}}]}`), &req)
	call := callFor("1", req, Reply{Kind: "ask"})
	fn := call["function"].(map[string]any)
	var args struct {
		Message         string `json:"message"`
		RequestedSchema struct {
			Properties map[string]struct {
				Type string   `json:"type"`
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	if err := json.Unmarshal([]byte(fn["arguments"].(string)), &args); err != nil || fn["name"] != "ask_user" {
		t.Fatalf("call %v: %v", call, err)
	}
	f, ok := args.RequestedSchema.Properties["framework"]
	if args.Message != AskQuestion || len(args.RequestedSchema.Properties) != 1 || !ok || f.Type != "string" || strings.Join(f.Enum, ",") != strings.Join(AskChoices, ",") {
		t.Errorf("ask_user arguments %+v", args)
	}
	if r := decide(turn{scenario: AskBrief, tools: true}, DefaultTiming); r.Kind != "ask" {
		t.Errorf("askbrief step 0: %+v, want the question", r)
	}
	if r := decide(turn{scenario: AskBrief, step: 1, tools: true}, DefaultTiming); r.Kind != "text" || r.Trickle != BriefFor {
		t.Errorf("askbrief step 1: %+v, want text trickled for %v", r, BriefFor)
	}
	if r := decide(turn{scenario: QuoteCopilotAsk, tools: true}, DefaultTiming); !strings.Contains(r.Text, "ctrl+d decline · esc cancel") {
		t.Errorf("the quote has not the form's hints: %q", r.Text)
	}
}
