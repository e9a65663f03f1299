package combine

import (
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
)

// The terminal-UI rule (Codex's daemon, measured on Codex 0.169.0): the TUI
// a person looks at is not the process that runs the session. The `codex
// app-server` daemon runs turns and hooks and outlives the TUI: a turn goes
// on after the TUI exits ("Any running work continues"), with its Stop hook
// and task_complete. So a session whose terminal UI is gone is exited only
// once no turn runs or waits — then from whichever came last, the TUI going
// or the turn ending — and at once when the daemon itself is gone (rule 1:
// its liveness is the record's Process). Which TUI shows which session:
// see package codex.

// terminalGone applies the rule to a report made at time at; and its
// converse: a session the hooks ended (SessionEnd) that a terminal UI
// shows is open (`codex resume --last` fires no SessionStart, and the
// daemon's SessionEnd for the TUI that quit can come after the resumed
// one started): idle until a turn says more.
func terminalGone(out *session.Shown, at time.Time, t *session.Terminal) {
	if out.State == session.Exited && strings.HasPrefix(out.Source, "hook:") && reopened(t, nil) {
		out.State, out.Source, out.Since = session.Idle, "process:terminal", time.UnixMilli(t.StartMs).UTC()
		return
	}
	if t == nil || !t.Gone || out.State == session.Working || out.State == session.Waiting || out.State == session.Exited {
		return
	}
	out.State, out.Source = session.Exited, "process:terminal-gone"
	out.Since = laterOf(at, t.At)
}

// describeTerminal: a session with a terminal UI is found, and jumped to,
// at its TUI, not at the process that runs it.
func describeTerminal(out *session.Shown, t *session.Terminal) {
	if t == nil || t.Gone {
		return
	}
	if t.Pid != 0 {
		out.Pid = t.Pid
	}
	if t.Tty != "" {
		out.Tty = t.Tty
	}
	if t.Tmux != nil && t.Tmux.Pane != "" {
		out.Tmux, out.TmuxServer = t.Tmux.Pane, t.Tmux.Socket
	}
}

// hooksReview applies the review rule: a Codex UI with no session yet,
// while Codex asks the person to review Mew's hooks, waits on that
// dialog; its own words say why (as its screen's would in tmux). It
// reports whether it applied.
func hooksReview(out *session.Shown, t *session.Terminal) bool {
	if t == nil || t.Gone || !t.HooksReview {
		return false
	}
	out.State, out.Reason, out.Source = session.Waiting, session.ReasonInput, "codex:hooks-review"
	out.ToolDetail = "Hooks need review: Codex asks you to trust Mew's hooks before it starts"
	out.Since = t.At
	return true
}

// reopened: a terminal UI shows the session now (whatever the hooks
// said).
func reopened(t *session.Terminal, _ *session.HookState) bool {
	return t != nil && !t.Gone && t.Pid > 0 && t.StartMs > 0
}
