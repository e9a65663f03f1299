package reducer

import "github.com/mew-dev/mew/session"

// Each agent's hooks are folded by the same reducer: an agent is the list of
// events Mew registers with it, plus a table that renames the agent's own
// event names to the canonical ones (Claude Code's names, and the few this
// package adds). A new agent with Claude-shaped payloads is data here.

// Interrupted is the canonical event for "the person stopped the turn"
// (Codex's Interrupt, fired on Esc): the turn is over and nothing waits on
// the person, so the session is idle, not done.
const Interrupted = "Interrupted"

// TurnNoReply is the canonical event for a turn that ended with no reply
// at all (Gemini CLI's AfterAgent with "[no response text]": an API error,
// or an Esc before any text): folded as Interrupted (idle, not done); its
// source tells combine that an error the screen shows since is this turn's.
const TurnNoReply = "TurnNoReply"

// SessionStartTurn is the canonical event for a SessionStart that comes
// with the session's first turn (Codex fires SessionStart only when the
// first prompt is submitted, after its rollout says task_started): a new
// session whose turn is already starting, so working, not idle.
const SessionStartTurn = "SessionStartTurn"

// StartsSession reports whether a canonical event starts (or resumes) a
// session: the hook records the agent process then.
func StartsSession(name string) bool { return name == SessionStart || name == SessionStartTurn }

// TurnRunning, TurnIdle and TurnRetrying are the canonical events of agents
// that report a status rather than hooks around each step (OpenCode's
// session.status): a turn runs; nothing runs; a failed request is being
// retried.
//
// TurnIdle ends a running turn as done; after an interrupt or a failure it
// changes nothing (OpenCode reports idle after both). After TurnRetrying it
// means the person gave up on the retries: idle, not done.
const (
	TurnRunning  = "TurnRunning"
	TurnIdle     = "TurnIdle"
	TurnRetrying = "TurnRetrying"
)

// Codex's own event names where they differ from the canonical ones.
const codexInterrupt = "Interrupt"

// Gemini CLI's hook events (0.61), Claude-shaped payloads under other
// names.
const (
	geminiBeforeAgent = "BeforeAgent"
	geminiAfterAgent  = "AfterAgent"
	geminiBeforeTool  = "BeforeTool"
	geminiAfterTool   = "AfterTool"
)

// GeminiEvents are the Gemini CLI hook events Mew registers for. Gemini runs
// hooks synchronously and shows "Executing Hooks" while they run: AfterModel
// and BeforeModel fire for every streamed chunk and request, PreCompress
// every turn, BeforeToolSelection every request, and none of them says
// anything about the state, so they are left out.
var GeminiEvents = []string{
	SessionStart, geminiBeforeAgent, geminiBeforeTool, geminiAfterTool, Notification, geminiAfterAgent, SessionEnd,
}

// Antigravity CLI's own event names. An invocation is one model call: a
// turn is PreInvocation … PostInvocation once per call, then Stop.
const (
	agyPreInvocation  = "PreInvocation"
	agyPostInvocation = "PostInvocation"
)

// AgyEvents are the Antigravity CLI hook events Mew registers for
// (~/.gemini/config/hooks.json): the ones agy 1.1.27 and 1.2.7 fire
// (`agy -p /hooks --output-format json` lists what loads). It drops
// PreToolUse, PostToolUse, Notification and SessionEnd without an error, so
// they are not registered: its dialogs and its exit are the screen's and
// the process's.
var AgyEvents = []string{SessionStart, agyPreInvocation, agyPostInvocation, Stop}

// AgyIgnored are the Claude-shaped events agy accepts in hooks.json and
// never fires (see AgyEvents).
var AgyIgnored = []string{PreToolUse, PostToolUse, Notification, SessionEnd}

// CodexEvents are the Codex hook events Mew registers for. Codex runs hooks
// synchronously, so events that say nothing about the state (PreCompact,
// PostCompact) are left out: each is a process start the person would wait
// for.
var CodexEvents = []string{
	SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse,
	Stop, SubagentStart, SubagentStop, codexInterrupt, SessionEnd,
}

// QwenEvents are the Qwen Code hook events Mew registers for (its
// settings.json takes Claude Code's hooks, and its payloads are Claude's:
// PermissionRequest and Notification permission_prompt before the dialog
// is drawn, Stop, StopFailure after the retries). Left out: PostToolBatch,
// MessageDisplay, InstructionsLoaded (they say nothing about the state).
var QwenEvents = []string{
	SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, Notification, Stop, StopFailure, SessionEnd,
}

// Payload is the shape of what an agent's hook hands mew-hook.
type Payload int

const (
	// HookPayload: Claude Code's hook payload (decoded leniently), or one
	// of the same shape under other names (Codex, Gemini CLI, Qwen Code).
	HookPayload Payload = iota
	// PluginPayload: the agent's own event object, forwarded by Mew's
	// plugin or extension (ParsePlugin).
	PluginPayload
	// CamelPayload: Claude's payload with camelCase field names (agy).
	CamelPayload
	// ClinePayload: Cline's hook files' payloads (parseCline).
	ClinePayload
	// CopilotPayload: Copilot CLI's payloads, which name no event: the
	// hook's command line does (parseCopilot).
	CopilotPayload
)

// Rename is one of an agent's event names and the canonical event it is.
type Rename struct{ Name, Canonical string }

// Mapping is everything the reducer knows of one agent, in one place: the
// hook events Mew registers with it, the shape of its payloads, and the
// table renaming its event names to the canonical ones. An agent that
// speaks another's events names it in Like and adds only what differs
// (Kilo: OpenCode's plugin events).
type Mapping struct {
	Agent   string   // session.Agent*
	Events  []string // the hook events Mew registers (nil: a plugin forwards them, or none)
	Payload Payload
	// LateProcess: the agent fires no SessionStart (or a plugin forwards
	// its events), so its first event of a session records the process.
	LateProcess bool
	// DaemonHooks: the agent's hooks run in a daemon that serves every
	// terminal of the agent (Codex's app server): the hook's environment
	// is not the session's terminal, so it is not recorded.
	DaemonHooks bool
	Renames     []Rename
	Like        string // the agent whose renames apply after this one's own
}

// Mappings is the reducer's list of agents; a slice, not a map: a
// package-level map is built at every start of the hook.
var Mappings = []Mapping{
	{Agent: session.AgentClaude, Events: Events},
	{Agent: session.AgentCodex, Events: CodexEvents, DaemonHooks: true, Renames: []Rename{
		{codexInterrupt, Interrupted},
		{SessionStart, SessionStartTurn},
	}},
	{Agent: session.AgentGemini, Events: GeminiEvents, Renames: []Rename{
		{geminiBeforeAgent, UserPromptSubmit},
		{geminiAfterAgent, Stop},
		{geminiBeforeTool, PreToolUse},
		{geminiAfterTool, PostToolUse},
		// The confirmation dialog (after BeforeTool); no hook says when it is
		// answered but AfterTool, and none at all when it is denied with Esc
		// (the screen sees that: combine rule 5).
		{notificationPrefix + "ToolPermission", notificationPrefix + notePermission},
	}},
	// OpenCode's plugin events (see PluginEvent for how a name gets its
	// ".kind"). Exit sends nothing: the process source sees it.
	{Agent: session.AgentOpenCode, Payload: PluginPayload, LateProcess: true, Renames: []Rename{
		{"session.created", SessionStart},
		{"session.status.busy", TurnRunning},
		{"session.status.retry", TurnRetrying},
		{"session.status.idle", TurnIdle},
		{"session.idle", TurnIdle},
		{"permission.asked", PermissionRequest},
		{"permission.replied.once", PostToolUse},
		{"permission.replied.always", PostToolUse},
		{"permission.replied.reject", Interrupted}, // Esc on the dialog is a reject too
		{"session.error.MessageAbortedError", Interrupted},
		{"session.error", StopFailure},
		// OpenCode 2.x (through the same plugin file, fields named as 1.x
		// names them): a turn is an execution; question.* became form.*, a
		// question to the person (ParsePlugin names its tool).
		{"session.execution.started", TurnRunning},
		{"session.execution.succeeded", Stop},
		{"session.execution.interrupted", Interrupted},
		{"session.execution.failed", StopFailure},
		{"question.asked", PermissionRequest},
		{"question.replied", PostToolUse},
		// A dismissed question (1.x, Kilo: Esc on it) ends the turn, as a
		// rejected permission does: idle, not done.
		{"question.rejected", Interrupted},
		{"form.asked", PermissionRequest},
		{"form.replied", PostToolUse},
		{"form.rejected", PostToolUse},
	}},
	// Kilo is an OpenCode fork with OpenCode's plugin events (measured on
	// Kilo 7.7.7: session.status busy/retry/idle, permission.asked,
	// permission.replied reject).
	{Agent: session.AgentKilo, Payload: PluginPayload, LateProcess: true, Like: session.AgentOpenCode},
	// Antigravity CLI's hook events (unverified: from its published
	// shapes): an invocation is one model call of a turn, Stop its end; it
	// has no permission event.
	{Agent: session.AgentAgy, Events: AgyEvents, Payload: CamelPayload, LateProcess: true, Renames: []Rename{
		{agyPreInvocation, UserPromptSubmit},
		{agyPostInvocation, TurnRunning},
	}},
	// Qwen Code asks before PreToolUse (PermissionRequest, then PreToolUse
	// only once the call is allowed; measured on 0.24.4): its PreToolUse
	// ends the wait, as Claude Code's PostToolUse would. A denial with Esc
	// fires no hook but PostToolBatch, which names no tool, and then its
	// idle_prompt Notification: unlike Claude Code's (a minute after a
	// turn), Qwen's comes as soon as its input box is back (0.5–4 s after a
	// Stop or an Esc on its dialog, never while a dialog shows), so it ends
	// a wait too (issue 35: the wait stayed 5–8 s with the pane unread).
	{Agent: session.AgentQwen, Events: QwenEvents, Renames: []Rename{
		{PreToolUse, PostToolUse},
		{notificationPrefix + noteIdle, notificationPrefix + noteInputIdle},
	}},
	// Copilot CLI's hook events (reducer/copilot.go: the hook is told the
	// event's name; errorOccurred is a retry when recoverable).
	{Agent: session.AgentCopilot, Events: CopilotEvents, Payload: CopilotPayload, Renames: []Rename{
		{copilotSessionStart, SessionStart},
		{copilotUserPrompt, UserPromptSubmit},
		{copilotPreToolUse, PreToolUse},
		// permissionRequest fires before Copilot's own rules settle the
		// call (not registered; one from an older hooks file waits on
		// nothing); notification's permission_prompt says the dialog is
		// up: the call preToolUse announced waits. No hook says the dialog
		// was answered with Esc (the session log's permission.completed
		// and the screen do).
		{copilotPermissionRequest, PreCompact},
		{copilotNotification, Notification},
		{notificationPrefix + notePermission, notificationPrefix + noteCallPermission},
		{copilotPostToolUse, PostToolUse},
		{copilotPostToolUseFailure, PostToolUseFailure},
		{copilotAgentStop, Stop},
		{copilotRetrying, TurnRetrying},
		{copilotErrorOccurred, StopFailure},
		{copilotSessionEnd, SessionEnd},
	}},
	// pi's events, as Mew's extension forwards them (install/plugin.go):
	// agent_end carries the stopReason of the run's last reply, or "retry"
	// for a failed request pi retries by itself (each attempt is its own
	// agent_end, then agent_start: still working). session_shutdown comes
	// at every exit (and before /new, /resume, /fork, /reload: their
	// session_start begins the next session).
	{Agent: session.AgentPi, Payload: PluginPayload, LateProcess: true, Renames: []Rename{
		{"session_start", SessionStart},
		{"agent_start", UserPromptSubmit},
		{"tool_execution_start", PreToolUse},
		{"tool_execution_end", PostToolUse},
		// Another extension's dialog while a tool call runs (pi's example
		// permission gate asks in tool_call), seen by Mew's extension
		// wrapping ctx.ui: the call waits on the person until answered.
		{"dialog_shown", PermissionRequest},
		{"dialog_closed", PostToolUse},
		{"agent_end.stop", Stop},
		{"agent_end.length", Stop},
		{"agent_end.retry", TurnRetrying},
		{"agent_end.error", StopFailure},
		{"agent_end.aborted", Interrupted},
		{"session_shutdown", SessionEnd},
	}},
	// Cline's hook files, by the hookName of their payloads (measured on
	// Cline 3.0.65): a task is one prompt's turn; tool_result comes after
	// an approval and after a denial (an error result) alike. No
	// SessionStart: the first event records the TUI.
	{Agent: session.AgentCline, Events: ClineEvents, Payload: ClinePayload, LateProcess: true, Renames: []Rename{
		{"agent_start", UserPromptSubmit},
		{"tool_call", PreToolUse},
		{"tool_result", PostToolUse},
		{"agent_end", Stop},
		{"agent_error", StopFailure},
		{"agent_abort", Interrupted},
		// Esc on a running turn: SessionShutdown, the turn's agent session
		// ended (not the TUI's: it did not run at Ctrl-C).
		{"session_shutdown", Interrupted},
	}},
	// Amp's plugin events (agent.end's status: done | error | cancelled).
	{Agent: session.AgentAmp, Payload: PluginPayload, LateProcess: true, Renames: []Rename{
		{"session.start", SessionStart},
		{"agent.start", UserPromptSubmit},
		{"agent.end.done", Stop},
		{"agent.end.error", StopFailure},
		{"agent.end.cancelled", Interrupted},
	}},
	// Screen-only agents: no hook, no plugin; named so the lookups know
	// them (Continue loads Claude-format hooks but fires none).
	{Agent: session.AgentContinue},
	{Agent: session.AgentGrok},
}

// MappingOf is agent's entry of Mappings (the zero Mapping, Claude-shaped
// with no renames, for an agent not listed).
func MappingOf(agent string) Mapping {
	for _, m := range Mappings {
		if m.Agent == agent {
			return m
		}
	}
	return Mapping{Agent: agent}
}

// notificationPrefix marks a rename of a Notification's kind
// (notification_type) rather than of an event.
const notificationPrefix = "Notification:"

// EventsFor lists the hook events Mew registers with agent (nil for an
// agent that has no hooks Mew installs: a plugin forwards OpenCode's, Amp's,
// Kilo's and pi's events, package install).
func EventsFor(agent string) []string { return MappingOf(agent).Events }

// Canonical is the canonical name of agent's event name.
func Canonical(agent, name string) string {
	if c, ok := lookup(agent, name); ok {
		return c
	}
	return name
}

// lookup finds name among agent's renames, then those of the agent it is
// Like.
func lookup(agent, name string) (string, bool) {
	for seen := 0; agent != "" && seen < 4; seen++ { // Like chains are short; never a loop
		m := MappingOf(agent)
		for _, r := range m.Renames {
			if r.Name == name {
				return r.Canonical, true
			}
		}
		agent = m.Like
	}
	return "", false
}

// Normalize turns an event of agent into the canonical one the reducer
// folds: its name, its notification kind, and the fields an agent names
// differently (Gemini's prompt_response is the turn's last message).
func Normalize(agent string, ev *Event) {
	ev.Name = Canonical(agent, ev.Name)
	if ev.Name == Notification && ev.NotificationType != "" {
		if c, ok := lookup(agent, notificationPrefix+ev.NotificationType); ok {
			ev.NotificationType = c[len(notificationPrefix):]
		}
	}
	if agent == session.AgentGemini && ev.Name == Stop && ev.PromptResponse == geminiNoResponse {
		// A turn that ended with no reply at all: an API error or an Esc
		// before any text (Gemini CLI ends both with an ordinary
		// AfterAgent). Not done either way (issue 35: with the pane unread
		// an API error showed done); a screen that shows the error makes it
		// failed (combine).
		ev.Name = TurnNoReply
		return
	}
	if ev.LastMessage == "" {
		ev.LastMessage = ev.PromptResponse
	}
}

// geminiNoResponse is what Gemini CLI 0.61 puts in AfterAgent's
// prompt_response when its turn produced no text (its bundle:
// `cumulativeResponse || getResponseText() || "[no response text]"`).
const geminiNoResponse = "[no response text]"
