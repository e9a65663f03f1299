// Package fakeresponses is a scripted stand-in for the OpenAI Responses API
// (`POST /v1/responses`, `wire_api = "responses"`), for driving the real
// Codex CLI in end-to-end tests without a network.
//
// The reply to each request is a pure function of the request (Decide): the
// person's prompt carries a scenario marker ("mew-e2e-<name>"), and the
// number of function-call outputs since that prompt says which step of the
// scenario comes next. Codex also sends side requests without tools (a title
// for the thread); they get a short neutral answer. With auto-review on
// (approvals_reviewer = "auto_review"), Codex asks a reviewer model about
// each approval request (see IsReview); it gets a verdict.
package fakeresponses

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"
)

// Scenario names, typed into the CLI as part of the prompt (see Prompt).
const (
	Text  = "text"  // one text reply
	Shell = "shell" // a shell call that needs approval (require_escalated), then text
	Slow  = "slow"  // a text reply that trickles for a long time (to press Esc in)
	Error = "error" // HTTP 500: the turn fails (Codex fires no hook for it)
	// Long is a text reply that starts only after Timing.Long: a turn that
	// keeps running while the test kills the TUI.
	Long = "long"
	// Tools is a turn of ToolCalls shell calls that need no approval, one
	// after another, then text.
	Tools = "tools"
	// Denied is the shell scenario's call, which Codex's auto-reviewer
	// denies (the shell scenario's it allows), then text.
	Denied = "denied"
	// Quote is a text reply that quotes Codex's approval dialog (QuotedDialog).
	Quote = "quote"
	// Ask calls request_user_input (Codex's structured question) when the
	// request offers it, then text; without it, a text reply saying so.
	Ask = "ask"
)

// QuotedDialog is the Quote scenario's reply: Codex's approval dialog in
// its own words, in the transcript.
const QuotedDialog = "The dialog reads:\n\nWould you like to run the following command?\n\n$ touch made-by-codex\n\n› 1. Yes, proceed (y)\n  2. No, and tell Codex what to do differently (esc)\n\nPress enter to confirm or esc to cancel"

// NoAskTool is the Ask scenario's reply when request_user_input is not offered.
const NoAskTool = "request_user_input is not offered."

// ToolCalls is how many calls the tools scenario makes in its turn.
const ToolCalls = 3

// markerPrefix cannot occur in Codex's own instructions or environment text,
// so a match can only come from what the test typed.
const markerPrefix = "mew-e2e-"

var markerRE = regexp.MustCompile(`\bmew-e2e-([a-z]+)\b`)

// Prompt is what a test types to start scenario name.
func Prompt(name string) string { return "please " + markerPrefix + name }

// ShellCommand is what the shell scenario asks to run.
const ShellCommand = "touch made-by-codex"

// Timing knobs of the scripted replies.
type Timing struct {
	// Slow is how long the slow reply trickles before it ends by itself.
	Slow time.Duration
	// Chunk is the gap between two pieces of a trickled reply.
	Chunk time.Duration
	// Long is how long the long scenario's reply takes to start.
	Long time.Duration
}

// DefaultTiming suits the end-to-end suite.
var DefaultTiming = Timing{Slow: 60 * time.Second, Chunk: 250 * time.Millisecond, Long: 6 * time.Second}

// Reply is one scripted model response.
type Reply struct {
	// Kind: "text", "call" (a function call) or "error" (an HTTP error).
	Kind string
	Text string
	// Call is the function call's name and arguments (JSON text).
	Call, Args string
	// Status is the HTTP status of an error reply.
	Status int
	// Delay is waited before the response starts (a model that thinks).
	Delay time.Duration
	// Trickle streams Text in pieces, one every Timing.Chunk, until Trickle
	// has passed or the client goes away.
	Trickle time.Duration
	// Why names the decision for the request log: scenario/step or "side".
	Why string
}

// Request is the part of a Responses API request the script looks at.
type Request struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Input  []Item `json:"input"`
	Tools  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	// Text.Format is the structured output asked for, if any.
	Text struct {
		Format struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// IsReview reports whether req is Codex's auto-review asking its reviewer
// model for a verdict on one approval request. Measured (Codex 0.169.0 and
// 0.171.0): the same model and endpoint as the turn, read-only tools
// offered, the transcript with the person's prompt in user messages, and a
// json_schema output whose required "outcome" is "allow" or "deny".
func (req Request) IsReview() bool {
	f := req.Text.Format
	_, ok := f.Schema.Properties["outcome"]
	return f.Type == "json_schema" && ok
}

// offers reports whether the request offers the named tool.
func (req Request) offers(name string) bool {
	for _, t := range req.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// Verdicts the reviewer gives, in the shape the review request asks for
// (Codex's own prompt: {"outcome":"allow"} for a low-risk action).
const (
	VerdictAllow = `{"outcome":"allow"}`
	VerdictDeny  = `{"risk_level":"high","user_authorization":"unknown","outcome":"deny","rationale":"The scripted reviewer denies this action."}`
)

// Item is one element of a request's input.
type Item struct {
	Type    string `json:"type"`
	Role    string `json:"role,omitempty"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content,omitempty"`
	CallID string `json:"call_id,omitempty"`
}

// Decide picks the reply to a request.
func Decide(req Request, t Timing) Reply {
	if req.IsReview() {
		// The reviewer's own transcript carries the person's prompt: the
		// scenario picks the verdict. It answers at once, calling no tool.
		scenario, _ := locate(req.Input)
		if scenario == Denied {
			return Reply{Kind: "text", Text: VerdictDeny, Why: "review/deny"}
		}
		return Reply{Kind: "text", Text: VerdictAllow, Why: "review/allow"}
	}
	if len(req.Tools) == 0 {
		// Codex asks for a thread title with no tools offered.
		return Reply{Kind: "text", Text: "Scripted e2e session", Why: "side"}
	}
	scenario, step := locate(req.Input)
	why := scenario + "/" + strconv.Itoa(step)
	done := Reply{Kind: "text", Text: "Done.", Why: why}
	switch scenario {
	case Text:
		return Reply{Kind: "text", Text: "Hello from the scripted model.", Why: why}
	case Shell, Denied:
		if step == 0 {
			args, _ := json.Marshal(map[string]string{
				"cmd": ShellCommand, "sandbox_permissions": "require_escalated",
				"justification": "Create a file outside the sandbox?",
			})
			return Reply{Kind: "call", Call: "exec_command", Args: string(args), Why: why}
		}
		return done
	case Tools:
		if step < ToolCalls {
			args, _ := json.Marshal(map[string]string{"cmd": "echo mew-e2e-step-" + strconv.Itoa(step)})
			return Reply{Kind: "call", Call: "exec_command", Args: string(args), Why: why}
		}
		return done
	case Slow:
		return Reply{Kind: "text", Text: "Thinking it over slowly", Trickle: t.Slow, Why: why}
	case Long:
		return Reply{Kind: "text", Text: "Finished the long task.", Delay: t.Long, Why: why}
	case Error:
		return Reply{Kind: "error", Status: 500, Text: "scripted server error", Why: why}
	case Quote:
		return Reply{Kind: "text", Text: QuotedDialog, Why: why}
	case Ask:
		if step > 0 {
			return done
		}
		if !req.offers("request_user_input") {
			return Reply{Kind: "text", Text: NoAskTool, Why: why + "/no-tool"}
		}
		args, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{
			"id": "framework", "header": "Framework", "question": "Which framework?",
			"options": []any{
				map[string]any{"label": "React", "description": "A"},
				map[string]any{"label": "Vue", "description": "B"},
			},
		}}})
		return Reply{Kind: "call", Call: "request_user_input", Args: string(args), Why: why}
	}
	return Reply{Kind: "text", Text: "No scripted scenario in this conversation.", Why: "unscripted"}
}

// locate finds the newest marked user message and counts the function-call
// outputs after it.
func locate(items []Item) (scenario string, step int) {
	outputs := 0
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Type == "function_call_output" {
			outputs++
			continue
		}
		if it.Role != "user" {
			continue
		}
		for _, c := range it.Content {
			if m := markerRE.FindStringSubmatch(c.Text); m != nil {
				return m[1], outputs
			}
		}
	}
	return "", outputs
}
