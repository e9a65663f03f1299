package demo

import "time"

// Sim is one simulated session.
type Sim struct {
	ID      string
	Project string // the folder name: what the board shows
	Model   string
}

// Sims are the demo's sessions. Fixed ids: the same cats on every run.
var Sims = []Sim{
	{ID: "d3m0c4a7-0001-4c1e-9a11-5e55a0c4f001", Project: "checkout-api"},
	{ID: "d3m0c4a7-0002-4c1e-9a11-5e55a0c4f002", Project: "web-app"},
	{ID: "d3m0c4a7-0003-4c1e-9a11-5e55a0c4f003", Project: "infra"},
	{ID: "d3m0c4a7-0004-4c1e-9a11-5e55a0c4f004", Project: "docs-site"},
	{ID: "d3m0c4a7-0005-4c1e-9a11-5e55a0c4f005", Project: "ml-pipeline"},
}

// Event is one hook event of a step: the hook_event_name and the fields
// Claude Code 2.1 sends with it besides session_id, transcript_path, cwd
// and permission_mode (see testdata/fixtures for recorded runs).
type Event struct {
	Name   string
	Fields map[string]any
}

// Step is one moment of the script.
type Step struct {
	At      time.Duration // from the start, at speed 1
	Session int           // index into Sims
	Events  []Event
	// Registry is the status Claude Code's own registry file shows after
	// the events ("idle", "busy", "waiting"; "" leaves it alone; "gone"
	// deletes it, as Claude Code does on exit).
	Registry   string
	WaitingFor string
	Note       string // narration shown under the board
}

func ev(name string, kv ...any) Event {
	e := Event{Name: name, Fields: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Fields[kv[i].(string)] = kv[i+1]
	}
	return e
}

func bash(cmd, desc string) map[string]any {
	return map[string]any{"command": cmd, "description": desc}
}

var question = map[string]any{"questions": []any{map[string]any{
	"question": "Which framework should the settings page use?", "header": "Framework", "multiSelect": false,
	"options": []any{
		map[string]any{"label": "React", "description": "like the rest of the app"},
		map[string]any{"label": "Svelte", "description": "smaller bundle"},
	},
}}}

var plan = map[string]any{"plan": "Move the job queue to SQS:\n1. add the SQS client\n2. dual-write for a day\n3. switch readers"}

const s = time.Second

// Script is the demo: five sessions through what a morning of agents
// looks like, as the real CLI would report it, hook events and registry.
var Script = []Step{
	{At: 0, Session: 0, Events: []Event{ev("SessionStart", "source", "startup", "model", "claude-opus-4-5")}, Registry: "idle"},
	{At: 300 * time.Millisecond, Session: 1, Events: []Event{ev("SessionStart", "source", "startup")}, Registry: "idle"},
	{At: 600 * time.Millisecond, Session: 2, Events: []Event{ev("SessionStart", "source", "startup")}, Registry: "idle"},
	{At: 900 * time.Millisecond, Session: 3, Events: []Event{ev("SessionStart", "source", "startup")}, Registry: "idle"},
	{At: 1200 * time.Millisecond, Session: 4, Events: []Event{ev("SessionStart", "source", "startup")}, Registry: "idle",
		Note: "Five Claude Code sessions start (simulated: the real mew-hook records them)."},

	{At: 2 * s, Session: 0, Events: []Event{ev("UserPromptSubmit", "prompt", "make the checkout tests pass")}, Registry: "busy",
		Note: "Each gets a task; the cats get busy."},
	{At: 2300 * time.Millisecond, Session: 1, Events: []Event{ev("UserPromptSubmit", "prompt", "start the settings page")}, Registry: "busy"},
	{At: 2600 * time.Millisecond, Session: 2, Events: []Event{ev("UserPromptSubmit", "prompt", "plan moving the job queue to SQS")}, Registry: "busy"},
	{At: 2900 * time.Millisecond, Session: 3, Events: []Event{ev("UserPromptSubmit", "prompt", "fix the broken links in the docs")}, Registry: "busy"},
	{At: 3200 * time.Millisecond, Session: 4, Events: []Event{ev("UserPromptSubmit", "prompt", "retrain the ranking model")}, Registry: "busy"},

	{At: 4 * s, Session: 3, Events: []Event{
		ev("PreToolUse", "tool_name", "Grep", "tool_input", map[string]any{"pattern": "](http"}, "tool_use_id", "toolu_demo_d1"),
		ev("PostToolUse", "tool_name", "Grep", "tool_input", map[string]any{"pattern": "](http"}, "tool_use_id", "toolu_demo_d1", "tool_response", map[string]any{"numFiles": 12}),
	}},
	{At: 5 * s, Session: 0, Events: []Event{
		ev("PreToolUse", "tool_name", "Bash", "tool_input", bash("npm test -- --watch=false", "Run the tests"), "tool_use_id", "toolu_demo_c1"),
		ev("PermissionRequest", "tool_name", "Bash", "tool_input", bash("npm test -- --watch=false", "Run the tests")),
	}, Registry: "waiting", WaitingFor: "permission prompt",
		Note: "checkout-api wants to run a command: it waits for your permission, and the board rings."},
	{At: 8 * s, Session: 1, Events: []Event{
		ev("PreToolUse", "tool_name", "AskUserQuestion", "tool_input", question, "tool_use_id", "toolu_demo_w1"),
		ev("PermissionRequest", "tool_name", "AskUserQuestion", "tool_input", question),
	}, Registry: "waiting", WaitingFor: "input needed",
		Note: "web-app has a question for you. The longest wait stays on top."},
	{At: 10 * s, Session: 3, Events: []Event{ev("Stop", "stop_hook_active", false, "last_assistant_message", "Fixed 3 broken links in the install guide.")}, Registry: "idle",
		Note: "docs-site finished its turn: done, your move."},
	{At: 12 * s, Session: 2, Events: []Event{
		ev("PreToolUse", "tool_name", "Agent", "tool_input", map[string]any{"description": "Survey queue usage", "prompt": "list every producer and consumer", "subagent_type": "general-purpose"}, "tool_use_id", "toolu_demo_i1"),
		ev("SubagentStart", "agent_id", "ademo0000000001", "agent_type", "general-purpose"),
		ev("PostToolUse", "tool_name", "Agent", "tool_input", map[string]any{"description": "Survey queue usage"}, "tool_use_id", "toolu_demo_i1", "tool_response", map[string]any{"status": "async_launched"}),
	}, Note: "infra starts a background subagent."},
	{At: 12500 * time.Millisecond, Session: 2, Events: []Event{ev("Stop", "stop_hook_active", false, "last_assistant_message", "Waiting for the survey.")},
		Note: "Its main turn stops, but the subagent still runs: still working."},
	{At: 14 * s, Session: 4, Events: []Event{ev("StopFailure", "error", map[string]any{"type": "overloaded_error", "message": "Overloaded"}, "last_assistant_message", "API Error: 529 overloaded")}, Registry: "idle",
		Note: "ml-pipeline's turn died on an API error: failed needs you too."},
	{At: 16 * s, Session: 2, Events: []Event{ev("SubagentStop", "agent_id", "ademo0000000001", "agent_type", "general-purpose", "last_assistant_message", "Found 4 producers, 2 consumers.")},
		Note: "The subagent stops; for a moment the hooks alone would say done…"},
	{At: 16200 * time.Millisecond, Session: 2, Events: []Event{ev("UserPromptSubmit", "prompt", "<task-notification>survey finished</task-notification>")},
		Note: "…but Claude Code re-engages by itself: no flash, no false alarm."},
	{At: 18 * s, Session: 0, Events: []Event{
		ev("PostToolUse", "tool_name", "Bash", "tool_input", bash("npm test -- --watch=false", "Run the tests"), "tool_use_id", "toolu_demo_c1", "tool_response", map[string]any{"stdout": "214 passing", "stderr": "", "interrupted": false}),
	}, Registry: "busy", Note: "You approved checkout-api's command: back to work."},
	{At: 20 * s, Session: 2, Events: []Event{
		ev("PreToolUse", "tool_name", "ExitPlanMode", "tool_input", plan, "tool_use_id", "toolu_demo_i2"),
		ev("PermissionRequest", "tool_name", "ExitPlanMode", "tool_input", plan),
	}, Registry: "waiting", WaitingFor: "input needed", Note: "infra has a plan for you to approve."},
	{At: 22 * s, Session: 1, Events: []Event{
		ev("PostToolUse", "tool_name", "AskUserQuestion", "tool_input", question, "tool_use_id", "toolu_demo_w1", "tool_response", map[string]any{"answers": map[string]any{"Framework": "React"}}),
	}, Registry: "busy", Note: "You answered web-app."},
	{At: 24 * s, Session: 0, Events: []Event{ev("Stop", "stop_hook_active", false, "last_assistant_message", "All 214 tests pass.")}, Registry: "idle",
		Note: "checkout-api is done."},
	{At: 26 * s, Session: 3, Events: []Event{ev("SessionEnd", "reason", "prompt_input_exit")}, Registry: "gone",
		Note: "You closed docs-site: it leaves the board."},
	{At: 28 * s, Session: 1, Events: []Event{ev("Stop", "stop_hook_active", false, "last_assistant_message", "The settings page is up at /settings.")}, Registry: "idle"},
	{At: 30 * s, Session: 2, Events: []Event{
		ev("PostToolUse", "tool_name", "ExitPlanMode", "tool_input", plan, "tool_use_id", "toolu_demo_i2", "tool_response", map[string]any{"plan": "approved"}),
	}, Registry: "busy", Note: "You approved infra's plan."},
	{At: 34 * s, Session: 2, Events: []Event{ev("Stop", "stop_hook_active", false, "last_assistant_message", "The queue now dual-writes to SQS.")}, Registry: "idle",
		Note: "That's the demo: select a session and press Enter to jump to its terminal; q quits."},
}
