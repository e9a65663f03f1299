// Package identity decides when two observations are the same session:
// the one place that says what "one row per agent process" means. It is
// pure (records and processes in, a verdict out); monitor.Merge applies it
// to every pass, and ARCHITECTURE.md ("Identity") states its rules:
//
//  1. The agent's own session id. Records and observations that carry the
//     same id are one session (hooks, a plugin, Claude Code's registry, a
//     Codex rollout; a `mew run` screen that names its session). Merge
//     does this by id before anything below.
//  2. The agent process: pid and start time (a reused pid is another
//     process). Claude Code's registry names its pid; the hook, a plugin,
//     `mew run` and the process scan name theirs; a screen names the
//     terminal's foreground job.
//  3. The agent process through its wrappers: a process that stands
//     between the agent and its terminal is the agent for identity. An
//     observation of a process that is on a record's wrapper chain (the
//     ancestors of the record's process, up to and including the first
//     shell) is that record's: Amp's hooks run in its plugin runtime
//     (`amp run …/plugin-runtime.ts`), a child of the `amp` TUI a screen
//     sees; `mew run` holds the pane's terminal while its child is the
//     agent; `sh -c 'claude …'` stays the pane's foreground job. (`env
//     VAR=… agent` execs the agent: the same pid.)
//  4. The terminal: a tmux pane on one server (the server's socket is
//     part of the pane's identity: every server numbers its panes from
//     %0), or a tty. An observation that names no process of a record
//     joins the newest session on its terminal whose process still runs;
//     one whose agent left the terminal (the shell is back; it names the
//     agent that left, which rules 2-3 try first) joins the newest
//     session there, running or not, so an exit never splits one row
//     into two exited ones.
//  5. Codex: its TUI and its app-server daemon are one session; the
//     source pairs them (source/codex, by folder and time) and says so in
//     the rollout's observation (Terminal: the TUI's pid and pane), so
//     rules 2-4 see the TUI.
//
// Anything else is a session of its own, under its fallback id (tmux:%N,
// run:<pid>, proc:<pid>).
package identity

import (
	"strings"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

// startSlack is how far two reads of one process's start time may differ
// (two clocks, rounding).
const startSlack = 2000 // ms

// maxWrappers bounds the wrapper chain: the agent's nearest ancestors.
const maxWrappers = 4

// Match finds the record of the process p among recs: its own pid first,
// then a wrapper of it, then its terminal (see the package rules). live[i]
// says whether recs[i]'s process may still run; left, that the
// observation is of a terminal whose agent left it (a screen whose agent
// is no longer the foreground job). It returns the index and whether one
// matched.
func Match(recs []session.Record, live []bool, p session.Process, left bool) (int, bool) {
	if p.Pid > 0 {
		for i := range recs {
			if SameProcess(recs[i], p) {
				return i, true
			}
		}
		for i := range recs {
			if Wraps(recs[i], p) {
				return i, true
			}
		}
	}
	// Rule 4: a terminal whose agent left may join a session that ended
	// there.
	best := -1
	for i := range recs {
		if !live[i] && !left {
			continue
		}
		if sameTerminal(recs[i], p, left) && (best < 0 || LastHeard(recs[i]).After(LastHeard(recs[best]))) {
			best = i
		}
	}
	return best, best >= 0
}

// SameProcess: r's process is p (pid, and the start times agree where both
// are known).
func SameProcess(r session.Record, p session.Process) bool {
	if p.Pid <= 0 {
		return false
	}
	match := func(pid int, startMs int64) bool {
		if pid != p.Pid {
			return false
		}
		return startMs == 0 || p.StartMs == 0 || abs(startMs-p.StartMs) <= startSlack
	}
	// The registry's startedAt is when Claude Code started its session,
	// not its process: pids only (its own liveness check is exact).
	if r.Registry != nil && r.Registry.Pid > 0 && r.Registry.Pid == p.Pid {
		return true
	}
	if r.Process != nil && r.Process.Pid > 0 && match(r.Process.Pid, r.Process.StartMs) {
		return true
	}
	// A terminal UI that is gone (Codex's TUI quit) is still the process it
	// was, where both start times say so: its last screen joins it, so the
	// exit does not split the session in two.
	if t := r.Terminal; t != nil && t.Pid > 0 && match(t.Pid, t.StartMs) && (!t.Gone || (t.StartMs != 0 && p.StartMs != 0)) {
		return true
	}
	return r.Screen != nil && r.Screen.Pid > 0 && match(r.Screen.Pid, r.Screen.StartMs)
}

// Wraps: p is on the wrapper chain of r's process (rule 3): one of its
// nearest ancestors, up to and including the first shell.
func Wraps(r session.Record, p session.Process) bool {
	if p.Pid <= 0 || r.Process == nil {
		return false
	}
	for i, a := range r.Process.Ancestors {
		if i == maxWrappers {
			break
		}
		if a.Pid == p.Pid {
			return true
		}
		if proctree.IsShell(a.Name) || proctree.IsShell(a.Exe) {
			break // the terminal's shell: what is above it is not the agent's
		}
	}
	return false
}

// SameTerminal: r is on p's tmux pane (same server) or tty now.
func SameTerminal(r session.Record, p session.Process) bool { return sameTerminal(r, p, false) }

// sameTerminal: r was seen on p's tmux pane (same server) or tty; a
// terminal UI that left (Codex's TUI quit) counts when gone is true.
func sameTerminal(r session.Record, p session.Process, gone bool) bool {
	if p.Tmux != nil && p.Tmux.Pane != "" && samePane(r, *p.Tmux, gone) {
		return true
	}
	return p.Tty != "" && sameTty(r, p.Tty, gone)
}

// SamePane: r is on pane t of t's server. A socket either side does not
// name (an old record, Claude Code's registry) matches any server.
func SamePane(r session.Record, t session.Tmux) bool { return samePane(r, t, false) }

func samePane(r session.Record, t session.Tmux, gone bool) bool {
	socket := ""
	if r.Process != nil && r.Process.Tmux != nil {
		socket = r.Process.Tmux.Socket
		if r.Process.Tmux.Pane == t.Pane && SameServer(socket, t.Socket) {
			return true
		}
	}
	if r.Screen != nil && r.Screen.Pane == t.Pane && SameServer(socket, t.Socket) {
		return true
	}
	if tt := r.Terminal; tt != nil && (gone || !tt.Gone) && tt.Tmux != nil && tt.Tmux.Pane == t.Pane && SameServer(tt.Tmux.Socket, t.Socket) {
		return true
	}
	// Claude Code's registry names the pane as session:@window.%pane.
	return r.Registry != nil && r.Registry.Tmux != "" && strings.HasSuffix(r.Registry.Tmux, "."+t.Pane) && SameServer(socket, t.Socket)
}

// SameServer: two tmux sockets are one server, or one of them is not
// known.
func SameServer(a, b string) bool { return a == "" || b == "" || a == b }

// SameTty: r is on tty now.
func SameTty(r session.Record, tty string) bool { return sameTty(r, tty, false) }

func sameTty(r session.Record, tty string, gone bool) bool {
	return (r.Process != nil && r.Process.Tty == tty) || (r.Screen != nil && r.Screen.Tty == tty) ||
		(r.Terminal != nil && (gone || !r.Terminal.Gone) && r.Terminal.Tty == tty)
}

// LastHeard is the newest time any source heard from the session: among
// sessions on one terminal, the newest is the one an observation joins.
func LastHeard(r session.Record) (t time.Time) {
	if r.Hook != nil {
		t = r.Hook.At
	}
	if r.Registry != nil && r.Registry.At.After(t) {
		t = r.Registry.At
	}
	if r.Log != nil && r.Log.At.After(t) {
		t = r.Log.At
	}
	if r.Screen != nil && r.Screen.At.After(t) {
		t = r.Screen.At
	}
	return t
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
