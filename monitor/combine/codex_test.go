package combine

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Codex sessions: hooks (when trusted), the rollout (Log), the daemon
// (Process, liveness) and the TUI (Terminal). Times in seconds after c0, as
// in the recordings (testdata/fixtures/codex-0.169.0).
var c0 = time.Date(2026, 12, 1, 0, 50, 0, 0, time.UTC)

func cs(s float64) time.Time { return c0.Add(time.Duration(s * float64(time.Second))) }

func hookAt(st session.State, reason session.Reason, src string, at float64) *session.HookState {
	return &session.HookState{State: st, Reason: reason, Source: src, Since: cs(at), At: cs(at)}
}

func logAt(st session.State, src string, at float64) *session.LogState {
	return &session.LogState{State: st, Source: src, Since: cs(at), At: cs(at)}
}

func tui(gone bool, at float64) *session.Terminal {
	return &session.Terminal{Process: session.Process{Pid: 9493, Tty: "/dev/pts/2", Tmux: &session.Tmux{Pane: "%3"}}, Gone: gone, At: cs(at)}
}

func TestCodex(t *testing.T) {
	daemon := &session.Process{Pid: 9997}
	cases := []struct {
		name   string
		rec    session.Record
		live   Liveness
		state  session.State
		source string
		since  float64
	}{
		{"the approval: the hook's wait is newer than task_started",
			session.Record{Hook: hookAt(session.Waiting, session.ReasonPermission, "hook:PermissionRequest", 4.386), Log: logAt(session.Working, "rollout:task_started", 4.278), Terminal: tui(false, 0)},
			Alive, session.Waiting, "hook:PermissionRequest", 4.386},
		{"HTTP 500: no hook fires, the rollout's failure is newer",
			session.Record{Hook: hookAt(session.Working, "", "hook:UserPromptSubmit", 2.834), Log: logAt(session.Failed, "rollout:task_complete", 2.864), Terminal: tui(false, 0)},
			Alive, session.Failed, "rollout:task_complete", 2.864},
		{"hooks not trusted: the rollout alone",
			session.Record{Log: logAt(session.Done, "rollout:task_complete", 6.649), Terminal: tui(false, 0)},
			Alive, session.Done, "rollout:task_complete", 6.649},
		{"TUI killed mid-turn: the daemon runs the turn on",
			session.Record{Hook: hookAt(session.Working, "", "hook:UserPromptSubmit", 4), Log: logAt(session.Working, "rollout:task_started", 4), Process: daemon, Terminal: tui(true, 6)},
			Alive, session.Working, "hook:UserPromptSubmit", 4},
		{"... and exited when the turn ends",
			session.Record{Hook: hookAt(session.Done, "", "hook:Stop", 20), Log: logAt(session.Done, "rollout:task_complete", 20.01), Process: daemon, Terminal: tui(true, 6)},
			Alive, session.Exited, "process:terminal-gone", 20.01},
		{"/quit while idle: exited when the TUI went",
			session.Record{Hook: hookAt(session.Done, "", "hook:Stop", 6.6), Log: logAt(session.Done, "rollout:task_complete", 6.65), Process: daemon, Terminal: tui(true, 9.1)},
			Alive, session.Exited, "process:terminal-gone", 9.1},
		{"codex resume --last: ended by SessionEnd, a TUI of it started since: open again, idle",
			session.Record{Hook: hookAt(session.Exited, "", "hook:SessionEnd", 9.1), Log: logAt(session.Done, "rollout:task_complete", 6.65), Process: daemon, Terminal: resumedTUI(false, 30)},
			Alive, session.Idle, "process:terminal", 30},
		{"... and exited again when the resumed TUI quits",
			session.Record{Hook: hookAt(session.Exited, "", "hook:SessionEnd", 9.1), Log: logAt(session.Done, "rollout:task_complete", 6.65), Process: daemon, Terminal: resumedTUI(true, 40)},
			Alive, session.Exited, "hook:SessionEnd", 9.1},
		{"the daemon's SessionEnd for the TUI that quit comes after the resumed TUI started: still open",
			session.Record{Hook: hookAt(session.Exited, "", "hook:SessionEnd", 9.1), Process: daemon, Terminal: resumedTUI(false, 8.5)},
			Alive, session.Idle, "process:terminal", 8.5},
		{"a wait outlives no TUI either: still waiting",
			session.Record{Hook: hookAt(session.Waiting, session.ReasonPermission, "hook:PermissionRequest", 4), Process: daemon, Terminal: tui(true, 6)},
			Alive, session.Waiting, "hook:PermissionRequest", 4},
		{"the daemon gone: exited whatever runs",
			session.Record{Hook: hookAt(session.Working, "", "hook:UserPromptSubmit", 4), Log: logAt(session.Working, "rollout:task_started", 4), Process: daemon, Terminal: tui(false, 0)},
			Dead, session.Exited, "process:gone", 4},
		{"the TUI's prompt on screen wins over the rollout (hooks not trusted)",
			session.Record{Log: logAt(session.Working, "rollout:task_started", 4.278), Terminal: tui(false, 0),
				Screen: &session.ScreenState{Agent: "codex", State: session.ScreenBlocked, Reason: session.ReasonPermission, Rule: "codex/blocked#1", Since: cs(4.47), At: cs(4.5)}},
			Alive, session.Waiting, "screen:codex/blocked#1", 4.47},
	}
	for _, c := range cases {
		c.rec.ID, c.rec.Agent = "01a22f14-9a6c-76f1-9739-9d3cb1621146", session.AgentCodex
		got := Combine(c.rec, c.live)
		if got.State != c.state || got.Source != c.source || !got.Since.Equal(cs(c.since)) {
			t.Errorf("%s: %s from %s since %v, want %s from %s since %v", c.name, got.State, got.Source, got.Since.Sub(c0), c.state, c.source, cs(c.since).Sub(c0))
		}
		if got.Agent != session.AgentCodex {
			t.Errorf("%s: agent %q", c.name, got.Agent)
		}
	}
}

// A Codex session is found at its TUI: its terminal and pane, not the
// daemon's (which has none, and whose environment is another TUI's).
func TestCodexDescribesTheTUI(t *testing.T) {
	rec := session.Record{ID: "x", Agent: session.AgentCodex, Hook: hookAt(session.Working, "", "hook:UserPromptSubmit", 1),
		Process: &session.Process{Pid: 9997, Tmux: &session.Tmux{Pane: "%1"}}, Terminal: tui(false, 0)}
	got := Combine(rec, Alive)
	if got.Pid != 9493 || got.Tty != "/dev/pts/2" || got.Tmux != "%3" {
		t.Fatalf("pid %d tty %q tmux %q; want the TUI's", got.Pid, got.Tty, got.Tmux)
	}
	rec.Terminal.Gone = true
	if got := Combine(rec, Alive); got.Pid != 9997 {
		t.Fatalf("a gone TUI is not shown: pid %d", got.Pid)
	}
}

// resumedTUI is a TUI process started at start (seconds after c0).
func resumedTUI(gone bool, start float64) *session.Terminal {
	t := tui(gone, start)
	t.StartMs = cs(start).UnixMilli()
	return t
}
