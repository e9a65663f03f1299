package fakellm

import "encoding/json"

// AskContinue is a scenario where the model asks the person a question
// with Continue CLI's AskQuestion tool (AskQuestion: two choices), then,
// with the answer, replies with text.
const AskContinue = "askcontinue"

// AskQuestion is what the askcontinue scenario asks; AskChoices its choices.
const AskQuestion = "Which framework?"

var AskChoices = []string{"React", "Vue"}

// more is the reply of the scenarios of this file and quote.go; false for
// another scenario.
func more(c turn, why string) (Reply, bool) {
	if q, ok := quotes[c.scenario]; ok {
		return Reply{Kind: "text", Text: q, Why: why}, true
	}
	if c.scenario == AskContinue {
		if c.step == 0 {
			return Reply{Kind: "ask", Text: AskQuestion, Why: why}, true
		}
		return Reply{Kind: "text", Text: "Done.", Why: why}, true
	}
	return Reply{}, false
}

// callFor is the tool call of a "call" or "ask" reply.
func callFor(id string, req chatRequest, reply Reply) map[string]any {
	if reply.Kind != "ask" {
		return toolCall(id, req, reply.Text)
	}
	b, _ := json.Marshal(map[string]any{"question": reply.Text, "options": AskChoices})
	return map[string]any{"index": 0, "id": "call_" + id, "type": "function",
		"function": map[string]any{"name": "AskQuestion", "arguments": string(b)}}
}
