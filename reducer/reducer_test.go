package reducer

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// play folds payloads (JSON objects without session_id) one second apart.
func play(t *testing.T, payloads ...string) session.HookState {
	t.Helper()
	var h session.HookState
	for i, p := range payloads {
		ev, err := Parse([]byte(`{"session_id":"s",` + strings.TrimPrefix(p, "{")))
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		h = Apply(h, ev, t0.Add(time.Duration(i)*time.Second))
	}
	return h
}

func ev(name string, extra ...string) string {
	s := `{"hook_event_name":"` + name + `"`
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

const (
	bashInput = `"tool_input":{"command":"rm -rf build"}`
	askInput  = `"tool_input":{"questions":[{"question":"Which framework?"}]}`
)

func TestRules(t *testing.T) {
	start := ev(SessionStart, `"source":"startup"`, `"cwd":"/p/proj"`)
	prompt := ev(UserPromptSubmit, `"prompt":"fix it"`)
	preBash := ev(PreToolUse, `"tool_name":"Bash"`, bashInput, `"tool_use_id":"t1"`)
	permBash := ev(PermissionRequest, `"tool_name":"Bash"`, bashInput)
	postBash := ev(PostToolUse, `"tool_name":"Bash"`, bashInput, `"tool_use_id":"t1"`)
	stop := ev(Stop, `"last_assistant_message":"All done."`)
	cases := []struct {
		name   string
		events []string
		state  session.State
		reason session.Reason
	}{
		{"fresh session is idle", []string{start}, session.Idle, ""},
		{"prompt → working", []string{start, prompt}, session.Working, ""},
		{"PermissionRequest → waiting at once", []string{start, prompt, preBash, permBash}, session.Waiting, session.ReasonPermission},
		{"PermissionRequest of AskUserQuestion → question", []string{prompt, ev(PermissionRequest, `"tool_name":"AskUserQuestion"`, askInput)}, session.Waiting, session.ReasonQuestion},
		{"PermissionRequest of ExitPlanMode → plan", []string{prompt, ev(PermissionRequest, `"tool_name":"ExitPlanMode"`)}, session.Waiting, session.ReasonPlan},
		{"PreToolUse AskUserQuestion → question", []string{prompt, ev(PreToolUse, `"tool_name":"AskUserQuestion"`, askInput, `"tool_use_id":"a"`)}, session.Waiting, session.ReasonQuestion},
		{"PreToolUse ExitPlanMode → plan", []string{prompt, ev(PreToolUse, `"tool_name":"ExitPlanMode"`, `"tool_use_id":"p"`)}, session.Waiting, session.ReasonPlan},
		{"answered question → working", []string{prompt, ev(PreToolUse, `"tool_name":"AskUserQuestion"`, askInput, `"tool_use_id":"a"`), ev(PermissionRequest, `"tool_name":"AskUserQuestion"`, askInput), ev(PostToolUse, `"tool_name":"AskUserQuestion"`, `"tool_input":{"questions":[],"answers":{}}`, `"tool_use_id":"a"`)}, session.Working, ""},
		{"PostToolUse after the prompt → working", []string{prompt, preBash, permBash, postBash}, session.Working, ""},
		{"PostToolUseFailure → working", []string{prompt, preBash, permBash, ev(PostToolUseFailure, `"tool_name":"Bash"`, `"tool_use_id":"t1"`)}, session.Working, ""},
		{"PermissionDenied → working", []string{prompt, preBash, permBash, ev(PermissionDenied, `"tool_name":"Bash"`, `"tool_use_id":"t1"`)}, session.Working, ""},
		{"Notification permission_prompt → waiting(permission)", []string{prompt, ev(Notification, `"notification_type":"permission_prompt"`)}, session.Waiting, session.ReasonPermission},
		{"Notification without type, permission message (older CLI)", []string{prompt, ev(Notification, `"message":"Claude needs your permission to use Bash"`)}, session.Waiting, session.ReasonPermission},
		{"elicitation_dialog → question", []string{prompt, ev(Notification, `"notification_type":"elicitation_dialog"`)}, session.Waiting, session.ReasonQuestion},
		{"elicitation_url_dialog → question", []string{prompt, ev(Notification, `"notification_type":"elicitation_url_dialog"`)}, session.Waiting, session.ReasonQuestion},
		{"agent_needs_input → input", []string{prompt, ev(Notification, `"notification_type":"agent_needs_input"`)}, session.Waiting, session.ReasonInput},
		{"idle_prompt never makes waiting: done stays done", []string{prompt, stop, ev(Notification, `"notification_type":"idle_prompt"`)}, session.Done, ""},
		{"idle_prompt ends a turn no hook saw end (Esc)", []string{prompt, ev(Notification, `"notification_type":"idle_prompt"`)}, session.Idle, ""},
		{"idle_prompt leaves a shown prompt alone", []string{prompt, preBash, permBash, ev(Notification, `"notification_type":"idle_prompt"`)}, session.Waiting, session.ReasonPermission},
		{"auth_success changes nothing", []string{prompt, stop, ev(Notification, `"notification_type":"auth_success"`)}, session.Done, ""},
		{"unknown notification changes nothing", []string{prompt, preBash, permBash, ev(Notification, `"notification_type":"brand_new"`)}, session.Waiting, session.ReasonPermission},
		{"Stop → done", []string{prompt, preBash, permBash, postBash, stop}, session.Done, ""},
		{"Stop clears a prompt the hooks never saw answered", []string{prompt, preBash, permBash, stop}, session.Done, ""},
		{"StopFailure → failed", []string{prompt, ev(StopFailure, `"error":"rate_limit"`)}, session.Failed, ""},
		{"a new prompt after a failure → working", []string{prompt, ev(StopFailure, `"error":"rate_limit"`), prompt}, session.Working, ""},
		{"SessionEnd → exited", []string{prompt, ev(SessionEnd, `"reason":"other"`)}, session.Exited, ""},
		{"exited is final", []string{prompt, ev(SessionEnd), prompt, preBash, permBash}, session.Exited, ""},
		{"a new SessionStart revives an exited session", []string{prompt, ev(SessionEnd), ev(SessionStart, `"source":"resume"`)}, session.Idle, ""},
		{"Stop with a subagent running keeps working", []string{prompt, ev(SubagentStart, `"agent_id":"a1"`), stop}, session.Working, ""},
		{"the last SubagentStop after Stop hands back: held working", []string{prompt, ev(SubagentStart, `"agent_id":"a1"`), ev(SubagentStart, `"agent_id":"a2"`), stop, ev(SubagentStop, `"agent_id":"a1"`), ev(SubagentStop, `"agent_id":"a2"`)}, session.Working, ""},
		{"the hand-back's turn ends → done", []string{prompt, ev(SubagentStart, `"agent_id":"a1"`), stop, ev(SubagentStop, `"agent_id":"a1"`), prompt, stop}, session.Done, ""},
		{"an unknown subagent's stop after Stop hands nothing back", []string{prompt, stop, ev(SubagentStop, `"agent_id":"zz"`)}, session.Done, ""},
		{"SubagentStop before its Stop leaves the turn working", []string{prompt, ev(SubagentStart, `"agent_id":"a1"`), ev(SubagentStop, `"agent_id":"a1"`)}, session.Working, ""},
		{"Stop's running background subagent counts even if its start was missed", []string{prompt, ev(Stop, `"background_tasks":[{"id":"bg","type":"subagent","status":"running"}]`)}, session.Working, ""},
		{"a stopped subagent is not revived by a stale background list", []string{prompt, ev(SubagentStart, `"agent_id":"bg"`), ev(SubagentStop, `"agent_id":"bg"`), ev(Stop, `"background_tasks":[{"id":"bg","type":"subagent","status":"running"}]`)}, session.Done, ""},
		{"a background subagent's permission prompt waits after Stop", []string{prompt, ev(SubagentStart, `"agent_id":"a1"`), stop, ev(PreToolUse, `"agent_id":"a1"`, `"tool_name":"Bash"`, bashInput, `"tool_use_id":"s1"`), ev(PermissionRequest, `"agent_id":"a1"`, `"tool_name":"Bash"`, bashInput)}, session.Waiting, session.ReasonPermission},
		{"a subagent's tool does not clear the main prompt", []string{prompt, preBash, permBash, ev(PreToolUse, `"agent_id":"a1"`, `"tool_name":"Read"`, `"tool_use_id":"r"`), ev(PostToolUse, `"agent_id":"a1"`, `"tool_name":"Read"`, `"tool_use_id":"r"`)}, session.Waiting, session.ReasonPermission},
		{"Stop blocked by another hook: main tools after it mean working", []string{prompt, stop, ev(PreToolUse, `"tool_name":"Bash"`, bashInput, `"tool_use_id":"t9"`)}, session.Working, ""},
		{"compaction changes nothing", []string{prompt, stop, ev(PreCompact, `"trigger":"auto"`), ev(PostCompact)}, session.Done, ""},
		{"unknown events are recorded, never an error", []string{prompt, stop, ev("BrandNewEvent", `"x":1`)}, session.Done, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := play(t, c.events...)
			if h.State != c.state || h.Reason != c.reason {
				t.Fatalf("state = %s(%s) by %s, want %s(%s)", h.State, h.Reason, h.Source, c.state, c.reason)
			}
		})
	}
}

func TestDetails(t *testing.T) {
	h := play(t,
		ev(SessionStart, `"source":"startup"`, `"cwd":"/Users/dev/proj"`, `"model":"claude-opus"`),
		ev(UserPromptSubmit, `"prompt":"  fix the login bug\nand add a test"`),
		ev(PreToolUse, `"tool_name":"Bash"`, `"tool_input":{"command":"go test ./...\u001b[2J"}`, `"tool_use_id":"t1"`),
		ev(PermissionRequest, `"tool_name":"Bash"`, `"tool_input":{"command":"go test ./...\u001b[2J"}`),
	)
	if h.Cwd != "/Users/dev/proj" || h.Title != "fix the login bug" || h.Model != "claude-opus" {
		t.Fatalf("details: %+v", h)
	}
	if h.Tool != "Bash" || h.ToolDetail != "go test ./... [2J" {
		t.Fatalf("tool = %q detail = %q (control characters must be dropped)", h.Tool, h.ToolDetail)
	}
	if h.Source != "hook:PermissionRequest" || !h.Since.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("source %q since %v", h.Source, h.Since)
	}
	// A task notification Claude Code writes itself does not rename.
	h2 := Apply(h, mustParse(t, ev(UserPromptSubmit, `"prompt":"<task-notification>x</task-notification>"`)), t0.Add(10*time.Second))
	if h2.Title != "fix the login bug" {
		t.Fatalf("title changed to %q", h2.Title)
	}
	h3 := Apply(h2, mustParse(t, ev(Stop, `"last_assistant_message":"Done.\nTests pass."`)), t0.Add(11*time.Second))
	if h3.LastMessage != "Done. Tests pass." || h3.State != session.Done {
		t.Fatalf("after Stop: %s %q", h3.State, h3.LastMessage)
	}
	// A state that does not change keeps its since.
	h4 := Apply(h3, mustParse(t, ev(Notification, `"notification_type":"idle_prompt"`)), t0.Add(70*time.Second))
	if !h4.Since.Equal(h3.Since) || h4.State != session.Done {
		t.Fatalf("idle_prompt moved since: %v → %v", h3.Since, h4.Since)
	}
	h5 := Apply(h4, mustParse(t, ev(StopFailure, `"error":{"type":"overloaded_error"}`)), t0.Add(80*time.Second))
	if h5.State != session.Failed || h5.Failure != "overloaded_error" {
		t.Fatalf("StopFailure: %s %q", h5.State, h5.Failure)
	}
}

func TestUnknownRecorded(t *testing.T) {
	h := play(t, ev("FancyNewEvent"), ev(Notification, `"notification_type":"sparkles"`), ev(Notification, `"notification_type":"auth_success"`))
	if strings.Join(h.Unknown, ",") != "FancyNewEvent,Notification:sparkles" || h.EventCount != 3 {
		t.Fatalf("unknown = %v count = %d", h.Unknown, h.EventCount)
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{``, `null`, `[]`, `"x"`, `{`, `{"hook_event_name":"Stop"}`, `{"session_id":""}`, `{"session_id":5}`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

// TestRandomOrders throws random event sequences (with random agent ids,
// tools and payload shapes) at the reducer: it never panics, the subagent
// set never holds duplicates or unknown ids, bounds hold, and exited is
// final until a new SessionStart.
func TestRandomOrders(t *testing.T) {
	names := append(append([]string{}, Events...), "Mystery")
	tools := []string{"Bash", "AskUserQuestion", "ExitPlanMode", "Read", ""}
	kinds := []string{"permission_prompt", "idle_prompt", "elicitation_dialog", "agent_needs_input", "auth_success", "new_kind", ""}
	agents := []string{"", "", "a1", "a2", "a3"}
	for seed := uint64(0); seed < 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed*7+1))
		var h session.HookState
		started := map[string]bool{}
		for i := 0; i < 80; i++ {
			p := map[string]any{"session_id": "s", "hook_event_name": names[rng.IntN(len(names))]}
			if rng.IntN(2) == 0 {
				p["tool_name"] = tools[rng.IntN(len(tools))]
				p["tool_input"] = map[string]any{"command": fmt.Sprint(rng.IntN(3))}
			}
			if rng.IntN(2) == 0 {
				p["tool_use_id"] = fmt.Sprint("t", rng.IntN(4))
			}
			if a := agents[rng.IntN(len(agents))]; a != "" {
				p["agent_id"] = a
			}
			if rng.IntN(3) == 0 {
				p["notification_type"] = kinds[rng.IntN(len(kinds))]
			}
			if rng.IntN(4) == 0 {
				p["background_tasks"] = []map[string]string{{"id": agents[rng.IntN(len(agents))], "type": "subagent", "status": "running"}}
			}
			raw, _ := json.Marshal(p)
			e, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			wasExited := h.State == session.Exited
			next := Apply(h, e, t0.Add(time.Duration(i)*time.Millisecond))
			if e.Name == SubagentStart && e.AgentID != "" {
				started[e.AgentID] = true
			}
			for _, bt := range e.BackgroundTasks {
				started[bt.ID] = true
			}
			if wasExited && e.Name != SessionStart && next.State != session.Exited {
				t.Fatalf("seed %d step %d: %s revived an exited session to %s", seed, i, e.Name, next.State)
			}
			seen := map[string]bool{}
			for _, id := range next.Subagents {
				if seen[id] || !started[id] {
					t.Fatalf("seed %d step %d: bad subagent set %v", seed, i, next.Subagents)
				}
				seen[id] = true
			}
			if len(next.Pending) > maxPending || len(next.Unknown) > maxUnknown || len(next.Finished) > maxFinished {
				t.Fatalf("seed %d: bounds exceeded", seed)
			}
			if (next.State == session.Waiting) != (next.Reason != "") {
				t.Fatalf("seed %d step %d: state %s with reason %q", seed, i, next.State, next.Reason)
			}
			h = next
		}
	}
}

func mustParse(t *testing.T, payload string) Event {
	t.Helper()
	e, err := Parse([]byte(`{"session_id":"s",` + strings.TrimPrefix(payload, "{")))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A question keeps its options (the choices when no screen shows the
// dialog), from PreToolUse or from a PermissionRequest that came alone;
// other tools keep none.
func TestQuestionOptions(t *testing.T) {
	ask := `"tool_input":{"questions":[{"question":"Which framework?","header":"Framework","options":[{"label":"React","description":"A"},{"label":"Vue\nnext","description":"B"}],"multiSelect":false},{"question":"Second?","options":[{"label":"X"}]}]}`
	for name, events := range map[string][]string{
		"pre and request": {ev(PreToolUse, `"tool_name":"AskUserQuestion"`, ask, `"tool_use_id":"q1"`), ev(PermissionRequest, `"tool_name":"AskUserQuestion"`, ask)},
		"request alone":   {ev(PermissionRequest, `"tool_name":"AskUserQuestion"`, ask)},
	} {
		h := play(t, events...)
		if len(h.Pending) != 1 || strings.Join(h.Pending[0].Options, "|") != "React|Vue next" || h.ToolDetail != "Which framework?" {
			t.Errorf("%s: pending %+v", name, h.Pending)
		}
	}
	many := `"tool_input":{"questions":[{"question":"Pick","options":[` + strings.Repeat(`{"label":"o"},`, 12) + `{"label":"last"}]}]}`
	if h := play(t, ev(PreToolUse, `"tool_name":"AskUserQuestion"`, many)); len(h.Pending[0].Options) != maxOptions {
		t.Errorf("%d options kept, want %d", len(h.Pending[0].Options), maxOptions)
	}
	if h := play(t, ev(PreToolUse, `"tool_name":"Bash"`, `"tool_input":{"command":"ls","options":[{"label":"x"}],"questions":[{"question":"q","options":[{"label":"y"}]}]}`)); h.Pending[0].Options != nil {
		t.Errorf("a Bash call kept options %q", h.Pending[0].Options)
	}
}

// Only the last background subagent of an ended turn hands back; the next
// event that bears on the state ends the hold (session.HandBackHold).
func TestHandBack(t *testing.T) {
	prompt := ev(UserPromptSubmit, `"prompt":"go"`)
	start := func(id string) string { return ev(SubagentStart, `"agent_id":"`+id+`"`) }
	stopOf := func(id string) string { return ev(SubagentStop, `"agent_id":"`+id+`"`) }
	if h := play(t, prompt, start("fg"), stopOf("fg")); !h.HandBack.IsZero() {
		t.Errorf("a subagent that stopped inside the turn handed back at %v", h.HandBack)
	}
	if h := play(t, prompt, start("a"), start("b"), ev(Stop), stopOf("a")); !h.HandBack.IsZero() || h.State != session.Working {
		t.Errorf("one of two background subagents stopped: hand-back %v, %s", h.HandBack, h.State)
	}
	h := play(t, prompt, start("a"), ev(Stop), stopOf("a"))
	if want := t0.Add(3 * time.Second); !h.HandBack.Equal(want) || h.State != session.Working {
		t.Errorf("the last background subagent stopped: hand-back %v (want %v), %s", h.HandBack, want, h.State)
	}
	if h := play(t, prompt, start("a"), ev(Stop), stopOf("a"), prompt); !h.HandBack.IsZero() {
		t.Errorf("the handed-back turn began, the hold stayed: %v", h.HandBack)
	}
}
