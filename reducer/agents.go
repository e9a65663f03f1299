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

// SessionStartTurn is the canonical event for a SessionStart that comes
// with the session's first turn (Codex fires SessionStart only when the
// first prompt is submitted, after its rollout says task_started): a new
// session whose turn is already starting, so working, not idle.
const SessionStartTurn = "SessionStartTurn"

// StartsSession reports whether a canonical event starts (or resumes) a
// session: the hook records the agent process then.
func StartsSession(name string) bool { return name == SessionStart || name == SessionStartTurn }

// Codex's own event names where they differ from the canonical ones.
const codexInterrupt = "Interrupt"

// CodexEvents are the Codex hook events Mew registers for. Codex runs hooks
// synchronously, so events that say nothing about the state (PreCompact,
// PostCompact) are left out: each is a process start the person would wait
// for.
var CodexEvents = []string{
	SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse,
	Stop, SubagentStart, SubagentStop, codexInterrupt, SessionEnd,
}

// rename maps one agent's event name to the canonical event. A slice, not a
// map: a package-level map is built at every start of the hook.
type rename struct{ agent, name, canonical string }

var renames = []rename{
	{session.AgentCodex, codexInterrupt, Interrupted},
	{session.AgentCodex, SessionStart, SessionStartTurn},
}

// EventsFor lists the hook events Mew registers with agent (nil for an
// agent that has no hooks Mew installs).
func EventsFor(agent string) []string {
	switch agent {
	case session.AgentClaude:
		return Events
	case session.AgentCodex:
		return CodexEvents
	}
	return nil
}

// Canonical is the canonical name of agent's event name.
func Canonical(agent, name string) string {
	for _, r := range renames {
		if r.agent == agent && r.name == name {
			return r.canonical
		}
	}
	return name
}
