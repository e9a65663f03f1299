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

// rename maps one agent's event name to the canonical event. A slice, not a
// map: a package-level map is built at every start of the hook.
type rename struct{ agent, name, canonical string }

var renames = []rename{
	{session.AgentCodex, codexInterrupt, Interrupted},
	{session.AgentCodex, SessionStart, SessionStartTurn},

	{session.AgentGemini, geminiBeforeAgent, UserPromptSubmit},
	{session.AgentGemini, geminiAfterAgent, Stop},
	{session.AgentGemini, geminiBeforeTool, PreToolUse},
	{session.AgentGemini, geminiAfterTool, PostToolUse},
	// The confirmation dialog (after BeforeTool); no hook says when it is
	// answered but AfterTool, and none at all when it is denied with Esc
	// (the screen sees that: combine rule 5).
	{session.AgentGemini, notificationPrefix + "ToolPermission", notificationPrefix + notePermission},

	// OpenCode's plugin events (see PluginEvent for how a name gets its
	// ".kind"). Exit sends nothing: the process source sees it.
	{session.AgentOpenCode, "session.created", SessionStart},
	{session.AgentOpenCode, "session.status.busy", TurnRunning},
	{session.AgentOpenCode, "session.status.retry", TurnRetrying},
	{session.AgentOpenCode, "session.status.idle", TurnIdle},
	{session.AgentOpenCode, "session.idle", TurnIdle},
	{session.AgentOpenCode, "permission.asked", PermissionRequest},
	{session.AgentOpenCode, "permission.replied.once", PostToolUse},
	{session.AgentOpenCode, "permission.replied.always", PostToolUse},
	{session.AgentOpenCode, "permission.replied.reject", Interrupted}, // Esc on the dialog is a reject too
	{session.AgentOpenCode, "session.error.MessageAbortedError", Interrupted},
	{session.AgentOpenCode, "session.error", StopFailure},
	// OpenCode 2.x (through the same plugin file, fields named as 1.x
	// names them): a turn is an execution; question.* became form.*, a
	// question to the person (ParsePlugin names its tool).
	{session.AgentOpenCode, "session.execution.started", TurnRunning},
	{session.AgentOpenCode, "session.execution.succeeded", Stop},
	{session.AgentOpenCode, "session.execution.interrupted", Interrupted},
	{session.AgentOpenCode, "session.execution.failed", StopFailure},
	{session.AgentOpenCode, "question.asked", PermissionRequest},
	{session.AgentOpenCode, "question.replied", PostToolUse},
	{session.AgentOpenCode, "question.rejected", PostToolUse},
	{session.AgentOpenCode, "form.asked", PermissionRequest},
	{session.AgentOpenCode, "form.replied", PostToolUse},
	{session.AgentOpenCode, "form.rejected", PostToolUse},

	// Antigravity CLI's hook events (unverified: from its published
	// shapes): an invocation is one model call of a turn, Stop its end; it
	// has no permission event.
	{session.AgentAgy, agyPreInvocation, UserPromptSubmit},
	{session.AgentAgy, agyPostInvocation, TurnRunning},

	// Qwen Code asks before PreToolUse (PermissionRequest, then PreToolUse
	// only once the call is allowed; measured on 0.24.4): its PreToolUse
	// ends the wait, as Claude Code's PostToolUse would. A denial with Esc
	// fires no hook but PostToolBatch, which names no tool, and then its
	// idle_prompt Notification: unlike Claude Code's (a minute after a
	// turn), Qwen's comes as soon as its input box is back (0.5–4 s after a
	// Stop or an Esc on its dialog, never while a dialog shows), so it ends
	// a wait too (issue 35: the wait stayed 5–8 s with the pane unread).
	{session.AgentQwen, PreToolUse, PostToolUse},
	{session.AgentQwen, notificationPrefix + noteIdle, notificationPrefix + noteInputIdle},

	// Kilo is an OpenCode fork with OpenCode's plugin events (measured on
	// Kilo 7.7.7: session.status busy/retry/idle, permission.asked,
	// permission.replied reject).
	{session.AgentKilo, "session.created", SessionStart},
	{session.AgentKilo, "session.status.busy", TurnRunning},
	{session.AgentKilo, "session.status.retry", TurnRetrying},
	{session.AgentKilo, "session.status.idle", TurnIdle},
	{session.AgentKilo, "session.idle", TurnIdle},
	{session.AgentKilo, "permission.asked", PermissionRequest},
	{session.AgentKilo, "permission.replied.once", PostToolUse},
	{session.AgentKilo, "permission.replied.always", PostToolUse},
	{session.AgentKilo, "permission.replied.reject", Interrupted},
	{session.AgentKilo, "session.error.MessageAbortedError", Interrupted},
	{session.AgentKilo, "session.error", StopFailure},

	// Copilot CLI's hook events (reducer/copilot.go: the hook is told the
	// event's name; errorOccurred is a retry when recoverable).
	{session.AgentCopilot, copilotSessionStart, SessionStart},
	{session.AgentCopilot, copilotUserPrompt, UserPromptSubmit},
	{session.AgentCopilot, copilotPreToolUse, PreToolUse},
	// permissionRequest fires before Copilot's own rules settle the call
	// (not registered; one from an older hooks file waits on nothing);
	// notification's permission_prompt says the dialog is up: the call
	// preToolUse announced waits. No hook says the dialog was answered with
	// Esc (the session log's permission.completed and the screen do).
	{session.AgentCopilot, copilotPermissionRequest, PreCompact},
	{session.AgentCopilot, copilotNotification, Notification},
	{session.AgentCopilot, notificationPrefix + notePermission, notificationPrefix + noteCallPermission},
	{session.AgentCopilot, copilotPostToolUse, PostToolUse},
	{session.AgentCopilot, copilotPostToolUseFailure, PostToolUseFailure},
	{session.AgentCopilot, copilotAgentStop, Stop},
	{session.AgentCopilot, copilotRetrying, TurnRetrying},
	{session.AgentCopilot, copilotErrorOccurred, StopFailure},
	{session.AgentCopilot, copilotSessionEnd, SessionEnd},
	// pi's events, as Mew's extension forwards them (install/plugin.go):
	// agent_end carries the stopReason of the run's last reply, or "retry"
	// for a failed request pi retries by itself (each attempt is its own
	// agent_end, then agent_start: still working). session_shutdown comes
	// at every exit (and before /new, /resume, /fork, /reload: their
	// session_start begins the next session).
	{session.AgentPi, "session_start", SessionStart},
	{session.AgentPi, "agent_start", UserPromptSubmit},
	{session.AgentPi, "tool_execution_start", PreToolUse},
	{session.AgentPi, "tool_execution_end", PostToolUse},
	{session.AgentPi, "agent_end.stop", Stop},
	{session.AgentPi, "agent_end.length", Stop},
	{session.AgentPi, "agent_end.retry", TurnRetrying},
	{session.AgentPi, "agent_end.error", StopFailure},
	{session.AgentPi, "agent_end.aborted", Interrupted},
	{session.AgentPi, "session_shutdown", SessionEnd},
	// Cline's hook files, by the hookName of their payloads (measured on
	// Cline 3.0.65): a task is one prompt's turn; tool_result comes after
	// an approval and after a denial (an error result) alike.
	{session.AgentCline, "agent_start", UserPromptSubmit},
	{session.AgentCline, "tool_call", PreToolUse},
	{session.AgentCline, "tool_result", PostToolUse},
	{session.AgentCline, "agent_end", Stop},
	{session.AgentCline, "agent_error", StopFailure},
	{session.AgentCline, "agent_abort", Interrupted},
	// Esc on a running turn: SessionShutdown, the turn's agent session
	// ended (not the TUI's: it did not run at Ctrl-C).
	{session.AgentCline, "session_shutdown", Interrupted},

	// Amp's plugin events (agent.end's status: done | error | cancelled).
	{session.AgentAmp, "session.start", SessionStart},
	{session.AgentAmp, "agent.start", UserPromptSubmit},
	{session.AgentAmp, "agent.end.done", Stop},
	{session.AgentAmp, "agent.end.error", StopFailure},
	{session.AgentAmp, "agent.end.cancelled", Interrupted},
}

// notificationPrefix marks a rename of a Notification's kind
// (notification_type) rather than of an event.
const notificationPrefix = "Notification:"

// EventsFor lists the hook events Mew registers with agent (nil for an
// agent that has no hooks Mew installs).
func EventsFor(agent string) []string {
	switch agent {
	case session.AgentClaude:
		return Events
	case session.AgentCodex:
		return CodexEvents
	case session.AgentGemini:
		return GeminiEvents
	case session.AgentAgy:
		return AgyEvents
	case session.AgentQwen:
		return QwenEvents
	case session.AgentCopilot:
		return CopilotEvents
	case session.AgentCline:
		return ClineEvents // the names of its hook files
	}
	return nil // OpenCode, Amp, Kilo, pi: a plugin forwards their events (package install)
}

// Canonical is the canonical name of agent's event name.
func Canonical(agent, name string) string {
	if c, ok := lookup(agent, name); ok {
		return c
	}
	return name
}

func lookup(agent, name string) (string, bool) {
	for _, r := range renames {
		if r.agent == agent && r.name == name {
			return r.canonical, true
		}
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
