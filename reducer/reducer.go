package reducer

import (
	"slices"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Notification kinds Claude Code sends (notification_type).
const (
	notePermission     = "permission_prompt"
	noteIdle           = "idle_prompt"
	noteElicitation    = "elicitation_dialog"
	noteElicitationURL = "elicitation_url_dialog"
	noteNeedsInput     = "agent_needs_input"
	noteAuthSuccess    = "auth_success"
	// noteInputIdle is Mew's own kind for an agent's idle_prompt that
	// comes as soon as its input box is back (Qwen Code's): nothing of the
	// main agent runs or waits any more.
	noteInputIdle = "input_idle"
	// noteCallPermission is Mew's own kind for an agent's permission_prompt
	// about the call it announced last (Copilot CLI's): that call waits.
	noteCallPermission = "call_permission"
	// noteWorkerPermission: a teammate of an agent team asks permission
	// ("<teammate> needs permission for <tool>"); the lead's session waits
	// on the person as much as for its own dialog.
	noteWorkerPermission = "worker_permission_prompt"
)

// notifyToolMarker marks a wait that only a Notification told us about; it
// has no tool call to finish it, so any later sign of progress clears it.
const notifyToolMarker = "notification"

// retryMarker marks a turn whose request failed and is being retried
// (TurnRetrying): if the agent then goes idle without running again, the
// person gave up on it.
const retryMarker = "retry"

// Apply folds one event into a copy of prev and returns it. now is the time
// the event happened (the hook's clock); Apply never reads the clock itself.
func Apply(prev session.HookState, ev Event, now time.Time) session.HookState {
	h := clone(prev)
	Fold(&h, &ev, now)
	return h
}

// Fold is Apply in place: it changes *h, reusing its slices. The hook uses
// it on the record it just read; pointers keep the hook's goroutine stack
// small (a deeper stack is a fresh stack to allocate and copy, and page
// faults are most of a hook process's cost).
func Fold(h *session.HookState, ev *Event, now time.Time) { FoldMono(h, ev, now, 0) }

// FoldMono is Fold with the event's time on the machine's monotonic clock
// too (internal/clock; 0 when unknown), kept as AtMono next to At.
func FoldMono(h *session.HookState, ev *Event, now time.Time, mono int64) {
	h.EventCount++
	if ev.Cwd != "" {
		h.Cwd = text.Truncate(ev.Cwd, maxFieldString)
	}
	if ev.TranscriptPath != "" {
		h.TranscriptPath = text.Truncate(ev.TranscriptPath, maxFieldString)
	}
	if ev.PermissionMode != "" {
		h.PermissionMode = oneLine(ev.PermissionMode, 40)
	}

	// Exited is final: only a new SessionStart (resume) brings it back. The
	// event is still counted as seen.
	if h.Ended != "" && !StartsSession(ev.Name) {
		return
	}

	source := "hook:" + ev.Name
	bears := true          // whether the event says anything about the state
	var handBack time.Time // set by a SubagentStop that hands back; any other event ends the hold
	main := ev.AgentID == ""

	switch ev.Name {
	case SessionStart, SessionStartTurn:
		if ev.Source != "compact" {
			// startup, resume and clear begin with nothing running; a
			// compaction restart continues whatever was going on.
			h.Pending, h.Subagents, h.Finished = nil, nil, nil
			h.Active, h.StopSeen, h.Failure = ev.Name == SessionStartTurn, false, ""
		}
		h.Ended = ""
		if ev.Model != "" {
			h.Model = oneLine(ev.Model, 60)
		}
	case UserPromptSubmit:
		h.Active, h.StopSeen, h.Failure = true, false, ""
		h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
		if t := titleFrom(ev.Prompt); t != "" {
			h.Title = t
		}
	case PreToolUse:
		detail, options := toolDetail(ev.ToolName, ev.ToolInput)
		h.Pending = addPending(h.Pending, session.PendingTool{
			ID: oneLine(ev.ToolUseID, 80), Agent: oneLine(ev.AgentID, 80), Tool: oneLine(ev.ToolName, 80),
			Input: inputHash(ev.ToolInput), Detail: detail, Options: options,
			Wait: toolWait(ev.ToolName), Since: now,
		})
		if main {
			h.Active, h.StopSeen = true, false
		}
	case PermissionRequest:
		// Auto-reviewed: nobody is asked yet (PreToolUse already made the
		// call pending: working); the screen says when the dialog shows
		// after all.
		if !ev.AutoReviewed || toolWait(ev.ToolName) != "" {
			h.Pending = markWaiting(h.Pending, ev, now)
		}
		if main {
			h.Active, h.StopSeen = true, false
		}
	case PostToolUse, PostToolUseFailure, PermissionDenied:
		h.Pending = finishPending(h.Pending, ev)
		if main {
			h.Active, h.StopSeen = true, false
		}
	case Notification:
		kind := notificationKind(ev)
		source += ":" + kind
		switch kind {
		case notePermission:
			h.Pending = addNotifyWait(h.Pending, session.ReasonPermission, now)
		case noteWorkerPermission:
			h.Pending = addNotifyWait(h.Pending, session.ReasonPermission, now)
			if w := firstWait(h.Pending); w != nil && w.Tool == notifyToolMarker && w.Detail == "" {
				w.Detail = oneLine(ev.Message, maxDetail) // names the teammate and its tool
			}
		case noteElicitation, noteElicitationURL:
			h.Pending = addNotifyWait(h.Pending, session.ReasonQuestion, now)
		case noteNeedsInput:
			h.Pending = addNotifyWait(h.Pending, session.ReasonInput, now)
		case noteIdle:
			// The input box has sat idle for a minute: nothing runs in the
			// main agent. It never makes a session wait (done stays done),
			// but it ends a turn the hooks never saw end (Esc fires no
			// hook). A shown wait or a running subagent is left alone.
			if firstWait(h.Pending) == nil && len(h.Subagents) == 0 {
				h.Active = false
				h.Pending = nil
			} else {
				bears = false
			}
		case noteCallPermission:
			if w := lastUnasked(h.Pending); w != nil {
				w.Wait, w.Since = session.ReasonPermission, now
			} else {
				h.Pending = addNotifyWait(h.Pending, session.ReasonPermission, now)
			}
		case noteInputIdle:
			// The input box is back: a dialog of the main agent dismissed
			// with no hook of its own (Esc) is over; a Stop or a failure
			// before stays what it was.
			h.Active = false
			h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
		default: // auth_success and kinds this Mew does not know change nothing
			bears = false
			if kind != noteAuthSuccess {
				h.Unknown = remember(h.Unknown, "Notification:"+kind, maxUnknown)
			}
		}
	case Stop:
		h.StopSeen, h.Active = true, false
		h.LastMessage = oneLine(ev.LastMessage, maxText)
		h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
		// A background subagent listed as running keeps the session
		// working even if its SubagentStart was missed; one that already
		// stopped is not revived by the list's stale status.
		for _, t := range ev.BackgroundTasks {
			if t.Type == "subagent" && t.Status == "running" && t.ID != "" && !slices.Contains(h.Finished, t.ID) {
				h.Subagents = addSorted(h.Subagents, oneLine(t.ID, 80))
			}
		}
	case StopFailure:
		h.Failure = errorKind(ev.Error)
		h.Active = false
		if ev.LastMessage != "" {
			h.LastMessage = oneLine(ev.LastMessage, maxText)
		}
		h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
	case SubagentStart:
		if ev.AgentID != "" {
			h.Subagents = addSorted(h.Subagents, oneLine(ev.AgentID, 80))
		}
	case SubagentStop:
		if ev.AgentID != "" {
			id := oneLine(ev.AgentID, 80)
			ran := slices.Contains(h.Subagents, id)
			h.Subagents = removeSorted(h.Subagents, id)
			if ran && h.StopSeen && !h.Active && len(h.Subagents) == 0 {
				// The last background subagent of an ended turn: Claude
				// Code starts a turn by itself to hand its result over.
				handBack = now
			}
			h.Finished = remember(h.Finished, id, maxFinished)
			h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == id })
		}
	case Interrupted, TurnNoReply:
		// The person stopped the turn: nothing of the main agent runs or
		// waits any more, and nothing is done either.
		h.Active, h.StopSeen, h.Failure = false, false, ""
		h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
	case TurnRunning:
		h.Active, h.StopSeen, h.Failure = true, false, ""
		h.Pending = dropPending(h.Pending, isRetry)
	case TurnRetrying:
		h.Active, h.StopSeen = true, false
		if !slices.ContainsFunc(h.Pending, isRetry) {
			h.Pending = addPending(h.Pending, session.PendingTool{Tool: retryMarker, Since: now})
		}
	case TurnIdle:
		// The agent reports idle after every turn, also one the person
		// stopped or one that failed: only a turn still running ends done.
		if !h.Active {
			bears = false
			break
		}
		gaveUp := slices.ContainsFunc(h.Pending, isRetry)
		h.Active, h.StopSeen = false, !gaveUp
		h.Pending = dropPending(h.Pending, func(p session.PendingTool) bool { return p.Agent == "" })
	case PreCompact, PostCompact:
		bears = false // compaction runs inside a turn or on /compact; it changes nothing shown
	case SessionEnd:
		h.Ended = oneLine(ev.Reason, 60)
		if h.Ended == "" {
			h.Ended = "ended"
		}
		h.Pending, h.Subagents, h.Active = nil, nil, false
	default:
		bears = false
		h.Unknown = remember(h.Unknown, oneLine(ev.Name, 60), maxUnknown)
	}

	if !bears {
		return
	}
	h.HandBack = handBack
	h.At, h.AtMono = now, mono
	state, reason, wait := derive(h)
	if state != h.State || reason != h.Reason || h.Since.IsZero() {
		h.State, h.Reason, h.Since, h.Source = state, reason, now, source
	}
	h.Tool, h.ToolDetail = "", ""
	if wait != nil {
		h.Tool, h.ToolDetail = wait.Tool, wait.Detail
	}
}

// derive computes the state from the facts. Order matters: an ended session
// is exited whatever else is known; anything waiting on the person outranks
// the rest; a failed turn is reported until the next prompt.
func derive(h *session.HookState) (session.State, session.Reason, *session.PendingTool) {
	if h.Ended != "" {
		return session.Exited, "", nil
	}
	if w := firstWait(h.Pending); w != nil {
		return session.Waiting, w.Wait, w
	}
	if h.Failure != "" {
		return session.Failed, "", nil
	}
	if h.StopSeen && len(h.Subagents) == 0 && h.HandBack.IsZero() {
		return session.Done, "", nil
	}
	if h.StopSeen || h.Active || len(h.Pending) > 0 || len(h.Subagents) > 0 {
		return session.Working, "", nil
	}
	return session.Idle, "", nil
}

func toolWait(tool string) session.Reason {
	switch tool {
	case toolAskUserQuestion, toolRequestUserInput, toolAskUser, toolQwenAskUser:
		return session.ReasonQuestion
	case toolExitPlanMode, toolExitPlanModeSnake:
		return session.ReasonPlan
	}
	return ""
}

// markWaiting pairs a PermissionRequest with the newest unfinished PreToolUse
// of the same agent, tool and input; without one (hooks installed mid-call)
// it adds the call. Codex adds a "description" to the PermissionRequest's
// tool_input, so a call whose input differs but whose detail (the command)
// is the same, and that waits on nothing yet, is the same call.
func markWaiting(pending []session.PendingTool, ev *Event, now time.Time) []session.PendingTool {
	reason := toolWait(ev.ToolName)
	if reason == "" {
		reason = session.ReasonPermission
	}
	agent, tool, input := oneLine(ev.AgentID, 80), oneLine(ev.ToolName, 80), inputHash(ev.ToolInput)
	detail, options := toolDetail(ev.ToolName, ev.ToolInput)
	for pass := 0; pass < 2; pass++ { // the same input first, then the same command
		for i := len(pending) - 1; i >= 0; i-- {
			p := &pending[i]
			match := p.Input == input
			if pass == 1 {
				match = p.Wait == "" && detail != "" && p.Detail == detail
			}
			if p.Agent == agent && p.Tool == tool && p.Tool != notifyToolMarker && match {
				if p.Wait == "" {
					p.Wait = reason
					p.Since = now
				}
				return pending
			}
		}
	}
	// OpenCode's permission.asked carries the request's id, which its
	// permission.replied names: the call is finished by it.
	return addPending(pending, session.PendingTool{
		ID: oneLine(ev.ToolUseID, 80), Agent: agent, Tool: tool, Input: input, Detail: detail, Options: options, Wait: reason, Since: now,
	})
}

func isRetry(p session.PendingTool) bool { return p.Tool == retryMarker && p.Agent == "" }

// finishPending removes the call an event finishes: by tool_use_id when both
// sides have one, else the oldest call of that agent and tool. Waits known
// only from a Notification are cleared too: the agent moved on.
func finishPending(pending []session.PendingTool, ev *Event) []session.PendingTool {
	pending = dropPending(pending, func(p session.PendingTool) bool { return p.Tool == notifyToolMarker })
	agent, tool := oneLine(ev.AgentID, 80), oneLine(ev.ToolName, 80)
	if ev.ToolUseID != "" {
		id := oneLine(ev.ToolUseID, 80)
		for i, p := range pending {
			if p.ID == id {
				return slices.Delete(pending, i, i+1)
			}
		}
	}
	for i, p := range pending {
		if p.Agent == agent && p.Tool == tool {
			return slices.Delete(pending, i, i+1)
		}
	}
	return pending
}

// addNotifyWait records a wait Claude Code announced by Notification, unless
// a tool call already explains the wait.
func addNotifyWait(pending []session.PendingTool, reason session.Reason, now time.Time) []session.PendingTool {
	if firstWait(pending) != nil {
		return pending
	}
	return addPending(pending, session.PendingTool{Tool: notifyToolMarker, Wait: reason, Since: now})
}

func addPending(pending []session.PendingTool, p session.PendingTool) []session.PendingTool {
	if p.ID != "" {
		for _, q := range pending {
			if q.ID == p.ID {
				return pending // a repeated PreToolUse of the same call
			}
		}
	}
	pending = append(pending, p)
	if len(pending) > maxPending {
		pending = slices.Delete(pending, 0, len(pending)-maxPending)
	}
	return pending
}

func dropPending(pending []session.PendingTool, drop func(session.PendingTool) bool) []session.PendingTool {
	return slices.DeleteFunc(pending, drop)
}

// lastUnasked is the main agent's newest call that waits on nothing yet.
func lastUnasked(pending []session.PendingTool) *session.PendingTool {
	for i := len(pending) - 1; i >= 0; i-- {
		if p := &pending[i]; p.Agent == "" && p.Wait == "" && p.Tool != notifyToolMarker && p.Tool != retryMarker {
			return p
		}
	}
	return nil
}

func firstWait(pending []session.PendingTool) *session.PendingTool {
	for i := range pending {
		if pending[i].Wait != "" {
			return &pending[i]
		}
	}
	return nil
}

// notificationKind reads notification_type, falling back to the message
// text older Claude Code versions sent alone.
func notificationKind(ev *Event) string {
	if ev.NotificationType != "" {
		return oneLine(ev.NotificationType, 60)
	}
	msg := strings.ToLower(ev.Message)
	switch {
	case strings.Contains(msg, "permission"):
		return notePermission
	case strings.Contains(msg, "waiting for your input"):
		return noteIdle
	}
	return "unknown"
}

// titleFrom makes a title of a prompt the person typed. Prompts Claude Code
// writes itself (task notifications) start with '<' and don't rename.
func titleFrom(prompt string) string {
	p := strings.TrimSpace(prompt)
	if p == "" || strings.HasPrefix(p, "<") {
		return ""
	}
	if i := strings.IndexAny(p, "\r\n"); i >= 0 {
		p = p[:i]
	}
	return oneLine(p, maxTitle)
}

func addSorted(set []string, id string) []string {
	i, found := slices.BinarySearch(set, id)
	if found || len(set) >= maxSubagents {
		return set
	}
	return slices.Insert(set, i, id)
}

func removeSorted(set []string, id string) []string {
	if i, found := slices.BinarySearch(set, id); found {
		return slices.Delete(set, i, i+1)
	}
	return set
}

// remember appends s to a list of at most n distinct names, dropping the oldest.
func remember(list []string, s string, n int) []string {
	if slices.Contains(list, s) {
		return list
	}
	list = append(list, s)
	if len(list) > n {
		list = slices.Delete(list, 0, len(list)-n)
	}
	return list
}

func clone(h session.HookState) session.HookState {
	h.Pending = slices.Clone(h.Pending)
	h.Subagents = slices.Clone(h.Subagents)
	h.Finished = slices.Clone(h.Finished)
	h.Unknown = slices.Clone(h.Unknown)
	return h
}
