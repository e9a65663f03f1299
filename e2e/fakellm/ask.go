package fakellm

import "encoding/json"

// Ask is a scenario where the model asks the person a question with the
// question tool the agent offers (askTools: AskQuestion and its choices in
// that tool's shape), then, with the answer, replies with text. A request
// that offers none of them gets Continue's AskQuestion, which the agent
// then refuses as unknown: the scenario's test sees no dialog.
const Ask = "ask"

// AskContinue is Ask under the name Continue's scenarios use.
const AskContinue = "askcontinue"

// AskBrief is Ask with its reply after the answer trickled for BriefFor:
// a turn seen running between the answer and its end.
const AskBrief = "askbrief"

// AskQuestion is what the ask scenarios ask; AskChoices their choices.
const AskQuestion = "Which framework?"

var AskChoices = []string{"React", "Vue"}

// askTools are the agents' question tools, by the name an agent offers
// the tool under, each giving AskQuestion and AskChoices as that tool's
// arguments. An agent's own file adds its tool (init), so agents do not
// share an edit here.
var askTools = map[string]func() map[string]any{
	// Continue CLI: AskQuestion(question, options).
	"AskQuestion": func() map[string]any { return map[string]any{"question": AskQuestion, "options": AskChoices} },
}

// more is the reply of the scenarios of this file and quote.go; false for
// another scenario.
func more(c turn, why string) (Reply, bool) {
	if r, ok := planFile(c, why); ok {
		return r, true
	}
	if q, ok := quotes[c.scenario]; ok {
		return Reply{Kind: "text", Text: q, Why: why}, true
	}
	if c.scenario == AskContinue || c.scenario == Ask || c.scenario == AskBrief || c.scenario == Plan {
		if c.step == 0 && c.scenario == Plan {
			return Reply{Kind: "ask", Text: PlanText, Why: why}, true
		}
		if c.step == 0 {
			return Reply{Kind: "ask", Text: AskQuestion, Why: why}, true
		}
		r := Reply{Kind: "text", Text: "Done.", Why: why}
		if c.scenario == AskBrief {
			r.Trickle = BriefFor
		}
		return r, true
	}
	return Reply{}, false
}

// offeredTool is the first tool of tools req offers, in the request's
// order, with its arguments; fallback's when it offers none.
func offeredTool(req chatRequest, tools map[string]func() map[string]any, fallback string) (string, map[string]any) {
	for _, t := range req.Tools {
		if args, ok := tools[t.Function.Name]; ok {
			return t.Function.Name, args()
		}
	}
	return fallback, tools[fallback]()
}

// callFor is the tool call of a "call" or "ask" reply.
func callFor(id string, req chatRequest, reply Reply) map[string]any {
	if reply.Kind != "ask" {
		return toolCall(id, req, reply.Text)
	}
	name, args := offeredTool(req, askTools, "AskQuestion")
	if reply.Text == PlanText {
		name, args = offeredTool(req, planTools, "exit_plan_mode")
	}
	b, _ := json.Marshal(args)
	return map[string]any{"index": 0, "id": "call_" + id, "type": "function",
		"function": map[string]any{"name": name, "arguments": string(b)}}
}
