package reducer

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestCanonicalRenamesOnlyTheAgentsOwnNames(t *testing.T) {
	cases := []struct{ agent, name, want string }{
		{session.AgentCodex, "Interrupt", Interrupted},
		{session.AgentCodex, SessionStart, SessionStartTurn},
		{session.AgentClaude, SessionStart, SessionStart},
		{session.AgentClaude, "Interrupt", "Interrupt"}, // Claude Code has no such event: stays unknown
		{session.AgentCodex, Stop, Stop},
		{session.AgentCodex, "Nonsense", "Nonsense"},
	}
	for _, c := range cases {
		if got := Canonical(c.agent, c.name); got != c.want {
			t.Errorf("Canonical(%q, %q) = %q, want %q", c.agent, c.name, got, c.want)
		}
	}
}

func TestEventsFor(t *testing.T) {
	if !slices.Equal(EventsFor(session.AgentClaude), Events) {
		t.Error("Claude Code's events are not the reducer's")
	}
	codex := EventsFor(session.AgentCodex)
	if !slices.Contains(codex, "Interrupt") || !slices.Contains(codex, PermissionRequest) || slices.Contains(codex, StopFailure) {
		t.Errorf("Codex events %v: want Interrupt and PermissionRequest, no StopFailure (Codex has none)", codex)
	}
	if slices.Contains(codex, PreCompact) {
		t.Error("Codex runs hooks synchronously: events that bear on nothing are not registered")
	}
	if EventsFor(session.AgentAmp) != nil {
		t.Error("Amp has no hooks Mew installs")
	}
}

// codexPlay folds Codex payloads the way mew-hook does: the event name
// renamed to the canonical one first.
func codexPlay(t *testing.T, payloads ...string) session.HookState {
	t.Helper()
	var h session.HookState
	for i, p := range payloads {
		e, err := Parse([]byte(`{"session_id":"s",` + p[1:]))
		if err != nil {
			t.Fatal(err)
		}
		e.Name = Canonical(session.AgentCodex, e.Name)
		Fold(&h, &e, t0.Add(secs(i)))
	}
	return h
}

func TestCodexTurns(t *testing.T) {
	prompt := ev(UserPromptSubmit, `"prompt":"please mew-shell"`)
	// As recorded (testdata/fixtures/codex-0.169.0/b-approve): the
	// PermissionRequest's tool_input has a description the PreToolUse's
	// has not, and no tool_use_id.
	pre := ev(PreToolUse, `"tool_name":"Bash"`, `"tool_input":{"command":"touch made-by-codex"}`, `"tool_use_id":"call_resp_0_0"`)
	perm := ev(PermissionRequest, `"tool_name":"Bash"`, `"tool_input":{"command":"touch made-by-codex","description":"Create a file outside the sandbox?"}`)
	post := ev(PostToolUse, `"tool_name":"Bash"`, `"tool_input":{"command":"touch made-by-codex"}`, `"tool_response":""`, `"tool_use_id":"call_resp_0_0"`)
	stop := ev(Stop, `"stop_hook_active":false`, `"last_assistant_message":"Done."`)
	interrupt := ev("Interrupt")

	// Codex fires SessionStart with the first prompt, after the turn began.
	if h := codexPlay(t, ev(SessionStart, `"source":"startup"`)); h.State != session.Working || h.Source != "hook:"+SessionStartTurn {
		t.Fatalf("SessionStart: %s from %s, want working: the first turn is starting", h.State, h.Source)
	}
	h := codexPlay(t, prompt, pre, perm)
	if h.State != session.Waiting || h.Reason != session.ReasonPermission || h.ToolDetail != "touch made-by-codex" {
		t.Fatalf("dialog: %s(%s) %q", h.State, h.Reason, h.ToolDetail)
	}
	if len(h.Pending) != 1 {
		t.Fatalf("the PermissionRequest was not paired with its PreToolUse: %+v", h.Pending)
	}
	if h = codexPlay(t, prompt, pre, perm, post); h.State != session.Working {
		t.Fatalf("approved and run: %s, want working (the wait must not outlive the call)", h.State)
	}
	if h = codexPlay(t, prompt, pre, perm, post, stop); h.State != session.Done || h.LastMessage != "Done." {
		t.Fatalf("turn over: %s %q", h.State, h.LastMessage)
	}
	// Esc on the dialog: Codex fires Interrupt (and no PostToolUse).
	if h = codexPlay(t, prompt, pre, perm, interrupt); h.State != session.Idle || h.Source != "hook:"+Interrupted || len(h.Pending) != 0 {
		t.Fatalf("Esc on the dialog: %s from %s, pending %v; want idle", h.State, h.Source, h.Pending)
	}
	// Esc while working, then a new prompt works again.
	if h = codexPlay(t, prompt, interrupt); h.State != session.Idle {
		t.Fatalf("Esc while working: %s", h.State)
	}
	if h = codexPlay(t, prompt, interrupt, prompt); h.State != session.Working {
		t.Fatalf("prompt after Esc: %s", h.State)
	}
	// An interrupt does not end a session nor bring an ended one back.
	if h = codexPlay(t, prompt, ev(SessionEnd, `"reason":"other"`), interrupt); h.State != session.Exited {
		t.Fatalf("after SessionEnd: %s", h.State)
	}
}

func secs(n int) time.Duration { return time.Duration(n) * time.Second }

// Codex's structured question is a PreToolUse of its tool
// request_user_input (issue 35: no mapping, it showed working): the person
// is asked, waiting(question), with the first question's choices where the
// payload has them; its PostToolUse (answered) works on.
func TestCodexRequestUserInput(t *testing.T) {
	prompt := ev(UserPromptSubmit, `"prompt":"set it up"`)
	input := `"tool_input":{"questions":[{"header":"Framework","id":"fw","question":"Which framework?","options":[{"label":"React","description":"a"},{"label":"Vue","description":"b"}]}]}`
	pre := ev(PreToolUse, `"tool_name":"request_user_input"`, input, `"tool_use_id":"call_q"`)
	post := ev(PostToolUse, `"tool_name":"request_user_input"`, input, `"tool_response":"React"`, `"tool_use_id":"call_q"`)
	h := codexPlay(t, prompt, pre)
	if h.State != session.Waiting || h.Reason != session.ReasonQuestion || h.ToolDetail != "Which framework?" {
		t.Fatalf("request_user_input: %s(%s) %q, want waiting(question)", h.State, h.Reason, h.ToolDetail)
	}
	if len(h.Pending) != 1 || !slices.Equal(h.Pending[0].Options, []string{"React", "Vue"}) {
		t.Fatalf("choices: %+v", h.Pending)
	}
	if h = codexPlay(t, prompt, pre, post); h.State != session.Working {
		t.Fatalf("answered: %s, want working", h.State)
	}
	bare := ev(PreToolUse, `"tool_name":"request_user_input"`, `"tool_input":{"questions":[{"question":"Go on?"}]}`)
	if h = codexPlay(t, prompt, bare); h.State != session.Waiting || h.Reason != session.ReasonQuestion || len(h.Pending[0].Options) != 0 {
		t.Fatalf("a question without choices: %s(%s) %+v", h.State, h.Reason, h.Pending)
	}
}

// Gemini CLI ends an API error with an ordinary AfterAgent whose
// prompt_response is its "[no response text]" (recorded in the e2e suite,
// TestGeminiNoDoneOnTheWay): with the pane unread it showed done (issue
// 35). A turn with no reply is not done: idle (an Esc before any text ends
// the same way); the screen, where it is read, makes it failed.
func TestGeminiNoResponseIsNotDone(t *testing.T) {
	play := func(response string) session.HookState {
		var h session.HookState
		for i, p := range []string{
			`{"session_id":"g","hook_event_name":"BeforeAgent","prompt":"please mew-e2e-error"}`,
			`{"session_id":"g","hook_event_name":"AfterAgent","prompt":"please mew-e2e-error","prompt_response":` + response + `,"stop_hook_active":false}`,
		} {
			e, err := Parse([]byte(p))
			if err != nil {
				t.Fatal(err)
			}
			Normalize(session.AgentGemini, &e)
			Fold(&h, &e, t0.Add(secs(i)))
		}
		return h
	}
	if h := play(`"[no response text]"`); h.State != session.Idle {
		t.Errorf("an AfterAgent with no reply: %s, want idle", h.State)
	}
	if h := play(`"Hello from the fake model."`); h.State != session.Done || h.LastMessage != "Hello from the fake model." {
		t.Errorf("an AfterAgent with a reply: %s %q, want done", h.State, h.LastMessage)
	}
}
