// Package fakeapi is a scripted stand-in for the Anthropic Messages API, for
// driving the real Claude Code CLI in end-to-end tests without a network.
//
// The reply to each request is a pure function of the request (Decide), so a
// run is deterministic: the person's prompt carries a scenario marker
// ("mew-e2e-<name>"), and the number of tool results since that prompt says
// which step of the scenario comes next.
package fakeapi

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// Scenario names, typed into the CLI as part of the prompt (see Prompt).
const (
	Text     = "text"     // one text reply
	Bash     = "bash"     // Bash tool_use (a permission prompt in default mode), then text
	Slow     = "slow"     // a text reply that trickles for a long time (to press Esc in)
	Ask      = "ask"      // AskUserQuestion, then text
	Plan     = "plan"     // ExitPlanMode (in plan mode), then text
	Agent    = "agent"    // the Agent tool: a background subagent, then text
	Subtask  = "subtask"  // the subagent's own conversation: a slow text reply
	Question = "question" // a plain-text question that ends the turn
	Quote    = "quote"    // a text reply that quotes a permission dialog's words
	// Agents2 starts two background subagents one after the other, so both
	// run at once: a Subtask and a SubBash, whose Bash call asks the person.
	Agents2 = "agentstwo"
	SubBash = "subbash" // a subagent's conversation: a Bash tool_use, then text
	// Fail answers with an HTTP 400 (invalid_request_error), which the CLI
	// does not retry: the turn fails at once.
	Fail = "fail"
)

// QuotedDialog is the Quote scenario's reply: a permission dialog's words
// as Claude Code draws them, in the transcript.
const QuotedDialog = "The dialog you saw reads:\n\nDo you want to proceed?\n❯ 1. Yes\n  2. Yes, and always allow access\n  3. No\n\nEsc to cancel · Tab to amend"

// markerPrefix cannot occur in Claude Code's own system reminders or
// environment text, so a match can only come from what the test typed.
const markerPrefix = "mew-e2e-"

var markerRE = regexp.MustCompile(`\bmew-e2e-([a-z]+)\b`)

// Prompt is what a test types to start scenario name.
func Prompt(name string) string { return "please " + markerPrefix + name }

// Timing knobs of the scripted replies.
type Timing struct {
	// Subtask is how long a subagent's reply takes: the time the background
	// subagent runs after the main turn has ended.
	Subtask time.Duration
	// Slow is how long the slow reply trickles before it ends by itself.
	Slow time.Duration
	// SlowChunk is the gap between two text pieces of the slow reply.
	SlowChunk time.Duration
	// Think delays the text and quote replies (0: none): a turn long
	// enough for Claude Code's registry to report it (a turn of 0.4 s can
	// leave the file idle throughout).
	Think time.Duration
}

// DefaultTiming suits the end-to-end suite: long enough to observe, short
// enough for a suite under three minutes.
var DefaultTiming = Timing{Subtask: 4 * time.Second, Slow: 60 * time.Second, SlowChunk: 250 * time.Millisecond}

// Reply is one scripted assistant message.
type Reply struct {
	// Kind: "text" or "tool_use".
	Kind  string
	Text  string         // text, or the text block before a tool_use when not empty
	Tool  string         // tool name for tool_use
	Input map[string]any // tool input
	// Delay is waited before the message starts (a model that thinks).
	Delay time.Duration
	// Trickle streams Text in pieces, one every Timing.SlowChunk, until
	// Trickle has passed or the client goes away.
	Trickle time.Duration
	// Why names the decision for the request log: scenario/step or side.
	Why string
	// Status, when not 0, is an HTTP error status sent instead of a
	// message, with Text as the error's message (Kind "error").
	Status int
}

// Request is the part of a Messages API request the script looks at.
type Request struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []Message       `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
	MaxTokens int `json:"max_tokens"`
}

// Message is one conversation turn; content is a string or a list of blocks.
type Message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Block is one content block of a message.
type Block struct {
	Type    string          `json:"type"`
	Text    string          `json:"text,omitempty"`
	Name    string          `json:"name,omitempty"`
	ID      string          `json:"id,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Content json.RawMessage `json:"content,omitempty"` // tool_result content
	IsError bool            `json:"is_error,omitempty"`
}

// Blocks returns the message's content as blocks; a plain string becomes one
// text block.
func (m Message) Blocks() []Block {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var bs []Block
	_ = json.Unmarshal(m.Content, &bs)
	return bs
}

// HasTool reports whether the request offers the named tool.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// Decide picks the reply to a request. Requests without the agent loop's
// tools are Claude Code's side queries (titles, summaries, classifiers): they
// get a short neutral answer. Agent-loop requests are answered by the
// scenario named in the newest marked prompt, at the step given by the tool
// results that followed it.
func Decide(req Request, t Timing) Reply {
	scenario, step, notification := locate(req.Messages)
	if !req.HasTool("Bash") && !req.HasTool("Read") && !req.HasTool("AskUserQuestion") {
		return Reply{Kind: "text", Text: sideAnswer(req), Why: "side"}
	}
	if notification {
		// A background task finished and Claude Code re-engaged on its own:
		// acknowledge without starting anything new, so the run settles.
		return Reply{Kind: "text", Text: "Noted: the background task finished.", Why: "task-notification"}
	}
	why := scenario + "/" + itoa(step)
	done := Reply{Kind: "text", Text: "Done.", Why: why}
	switch scenario {
	case Text:
		return Reply{Kind: "text", Text: "Hello from the scripted model.", Delay: t.Think, Why: why}
	case Bash:
		if step == 0 {
			return Reply{Kind: "tool_use", Tool: "Bash", Input: map[string]any{
				"command": "touch made-by-claude", "description": "Create a file"}, Why: why}
		}
		return done
	case Ask:
		if step == 0 {
			return Reply{Kind: "tool_use", Tool: "AskUserQuestion", Input: map[string]any{
				"questions": []any{map[string]any{
					"question": "Which framework?", "header": "Framework", "multiSelect": false,
					"options": []any{
						map[string]any{"label": "React", "description": "A"},
						map[string]any{"label": "Vue", "description": "B"},
					},
				}},
			}, Why: why}
		}
		return done
	case Plan:
		if step == 0 {
			return Reply{Kind: "tool_use", Tool: "ExitPlanMode", Input: map[string]any{
				"plan": "1. Create the file made-by-claude.\n2. Report back."}, Why: why}
		}
		return done
	case Agent:
		if step == 0 {
			return Reply{Kind: "tool_use", Tool: "Agent", Input: map[string]any{
				"description": "Run subtask", "prompt": markerPrefix + Subtask + ": report back",
				"subagent_type": "general-purpose", "run_in_background": true}, Why: why}
		}
		return done
	case Subtask:
		return Reply{Kind: "text", Text: "Subtask finished.", Delay: t.Subtask, Why: why}
	case Agents2:
		if step < 2 {
			sub := []string{Subtask, SubBash}[step]
			return Reply{Kind: "tool_use", Tool: "Agent", Input: map[string]any{
				"description": "Run " + sub, "prompt": markerPrefix + sub + ": report back",
				"subagent_type": "general-purpose", "run_in_background": true}, Why: why}
		}
		return done
	case SubBash:
		if step == 0 {
			return Reply{Kind: "tool_use", Tool: "Bash", Input: map[string]any{
				"command": "sleep 3; touch made-by-subagent", "description": "Create a file from the subagent"}, Why: why}
		}
		return Reply{Kind: "text", Text: "Subtask finished.", Why: why}
	case Fail:
		return Reply{Kind: "error", Status: 400, Text: "mew-e2e scripted failure: this request is invalid", Why: why}
	case Slow:
		return Reply{Kind: "text", Text: "Thinking it over slowly", Trickle: t.Slow, Why: why}
	case Question:
		return Reply{Kind: "text", Text: "I fixed the bug. Would you like me to add a regression test?", Why: why}
	case Quote:
		return Reply{Kind: "text", Text: QuotedDialog, Delay: t.Think, Why: why}
	}
	return Reply{Kind: "text", Text: "No scripted scenario in this conversation.", Why: "unscripted"}
}

// locate finds the newest marked prompt and counts the tool results after
// it. notification is true when a background-task notification came after
// the newest marked prompt's step began (Claude Code re-engaging by itself).
func locate(msgs []Message) (scenario string, step int, notification bool) {
	results := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		blocks := msgs[i].Blocks()
		for _, b := range blocks {
			if b.Type == "text" && strings.Contains(b.Text, "<task-notification>") && scenario == "" {
				notification = true
			}
		}
		// The newest marker of the message: a prompt whose request failed
		// (Fail) has no reply, and the CLI sends it with the next prompt
		// in one user message.
		for j := len(blocks) - 1; j >= 0; j-- {
			if blocks[j].Type != "text" {
				continue
			}
			if m := markerRE.FindAllStringSubmatch(blocks[j].Text, -1); m != nil {
				return m[len(m)-1][1], results, notification
			}
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results++
			}
		}
	}
	return "", results, notification
}

// sideAnswer answers Claude Code's side queries: a session title wants a few
// words, anything else a short sentence.
func sideAnswer(req Request) string {
	sys := strings.ToLower(string(req.System))
	switch {
	case strings.Contains(sys, "title"):
		return `{"title": "Scripted e2e session"}`
	default:
		return "OK."
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
