package monitor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// One agent process as every source sees it (the rules of package
// identity), while it runs and after it exits. The agent runs as pid 4242
// in pane %3 of the server at serverA, on /dev/pts/3; its shell is 4200.
const (
	agentPid   = 4242
	agentStart = 1_700_000_000_000
	shellPid   = 4200
	mewRunPid  = 4240 // `mew run`, between the shell and the agent
	pluginPid  = 4250 // Amp's plugin runtime, a child of the agent
	serverA    = "/tmp/tmux-1000/default"
	serverB    = "/tmp/tmux-1000/other"
	sessionID  = "s-1"
)

// sourceView is what one source contributes: a stored record (hook,
// plugin, registry readings folded in, `mew run`) or an observation.
type sourceView struct {
	rec *session.Record
	obs *Observation
}

type phase int

const (
	running phase = iota
	exited
)

func pane(server string) *session.Tmux { return &session.Tmux{Socket: server, Pane: "%3"} }

// view is source name's view of the agent in phase ph; wrapped says it runs
// under `mew run` (the pane's foreground job is the wrapper).
func view(name string, ph phase, wrapped bool, at time.Time) sourceView {
	shell := session.Ancestor{Pid: shellPid, Name: "bash"}
	ancestors := []session.Ancestor{shell}
	if wrapped {
		ancestors = []session.Ancestor{{Pid: mewRunPid, Name: "mew"}, shell}
	}
	agentProc := func() *session.Process {
		return &session.Process{Pid: agentPid, StartMs: agentStart, Tty: "/dev/pts/3", Tmux: pane(serverA), Ancestors: ancestors}
	}
	switch name {
	case "hook":
		return sourceView{rec: &session.Record{ID: sessionID, Agent: "claude", Process: agentProc(),
			Hook: &session.HookState{State: session.Working, At: at}}}
	case "plugin":
		// The hook runs in the plugin runtime: its process is the
		// runtime, the agent its parent.
		p := &session.Process{Pid: pluginPid, StartMs: agentStart + 900, Tmux: pane(serverA),
			Ancestors: append([]session.Ancestor{{Pid: agentPid, Name: "amp"}}, ancestors...)}
		return sourceView{rec: &session.Record{ID: sessionID, Agent: "amp", Process: p,
			Hook: &session.HookState{State: session.Working, At: at}}}
	case "registry":
		return sourceView{rec: &session.Record{ID: sessionID, Agent: "claude",
			Registry: &session.RegistryState{Pid: agentPid, Status: "busy", Tmux: "main:@1.%3", At: at}}}
	case "rollout":
		t := &session.Terminal{Process: session.Process{Pid: agentPid, StartMs: agentStart, Tty: "/dev/pts/3", Tmux: pane(serverA)}, Gone: ph == exited}
		return sourceView{obs: &Observation{ID: sessionID, Agent: "codex", Log: &session.LogState{State: session.Working, At: at}, Terminal: t}}
	case "tmux":
		st := &session.ScreenState{Agent: "claude", State: session.ScreenWorking, Via: "tmux", Pane: "%3", Tty: "/dev/pts/3", At: at}
		p := session.Process{Tty: "/dev/pts/3", Tmux: pane(serverA)}
		switch {
		case ph == exited:
			st.Background = true // the shell is back: no process
		case wrapped:
			p.Pid, p.StartMs = mewRunPid, agentStart-50
		default:
			p.Pid, p.StartMs = agentPid, agentStart
		}
		st.Pid, st.StartMs = p.Pid, p.StartMs
		return sourceView{obs: &Observation{Fallback: "tmux:%3", Agent: "claude", Process: p, Screen: st}}
	case "run":
		// Written by `mew run` to the store; its last screen stays.
		st := &session.ScreenState{Agent: "claude", State: session.ScreenWorking, Via: "run", Pid: agentPid, StartMs: agentStart, At: at}
		p := agentProc()
		p.Tty = "/dev/pts/9" // the wrapper's own PTY
		p.Ancestors = []session.Ancestor{{Pid: mewRunPid, Name: "mew"}, shell}
		return sourceView{rec: &session.Record{ID: "run:4242", Agent: "claude", Process: p, Screen: st}}
	case "procscan":
		if ph == exited {
			return sourceView{} // the process is gone from the table
		}
		return sourceView{obs: &Observation{Fallback: "proc:4242", Agent: "claude",
			Process: session.Process{Pid: agentPid, StartMs: agentStart, Tty: "/dev/pts/3", Tmux: pane(serverA), Cwd: "/p"}}}
	}
	panic(name)
}

// sees: pairs of sources that can both see one agent process. The agent's
// own reports come in one kind per agent: hooks (with Claude Code's
// registry, or Codex's rollout) or a plugin.
func sees(a, b string) bool {
	reports := map[string]string{"hook": "claude/codex", "plugin": "amp/opencode", "registry": "claude", "rollout": "codex"}
	ka, ra := reports[a]
	kb, rb := reports[b]
	if !ra || !rb {
		return true
	}
	return (a == "hook" && (b == "registry" || b == "rollout")) || (b == "hook" && (a == "registry" || a == "rollout")) || ka == kb
}

// Every pair of sources that can see one agent gives one row, while it
// runs and after it exits (an exit once split a joined row into two
// exited ones), with the agent's own session id when a source names it.
func TestIdentityEveryPairIsOneRow(t *testing.T) {
	sources := []string{"hook", "plugin", "registry", "rollout", "tmux", "run", "procscan"}
	at := time.Unix(1_800_000_000, 0)
	pairs := 0
	for i, a := range sources {
		for _, b := range sources[i+1:] {
			if !sees(a, b) {
				continue
			}
			for _, ph := range []phase{running, exited} {
				for _, bare := range []bool{false, true} {
					wrapped := a == "run" || b == "run"
					var recs []session.Record
					var obs []Observation
					named := false
					for _, name := range []string{a, b} {
						v := view(name, ph, wrapped, at)
						if bare && v.rec != nil && v.rec.Process != nil && ph == running {
							// The record knows its process only: no
							// TMUX_PANE, no terminal (Amp's plugin runtime).
							p := *v.rec.Process
							p.Tmux, p.Tty = nil, ""
							v.rec.Process = &p
						}
						if v.rec != nil {
							named = named || !strings.Contains(v.rec.ID, ":")
							if len(recs) > 0 && recs[0].ID == v.rec.ID {
								// The registry is a Recorder: its readings are
								// folded into the hooks' record of its session.
								recs[0].Registry = v.rec.Registry
								continue
							}
							recs = append(recs, *v.rec)
						}
						if v.obs != nil {
							obs = append(obs, *v.obs)
							named = named || v.obs.ID != ""
						}
					}
					alive := func(session.Record) bool { return ph == running }
					got := mergeAll(recs, obs, alive)
					name := fmt.Sprintf("%s+%s/%s", a, b, map[phase]string{running: "running", exited: "exited"}[ph])
					if bare {
						name += "/process-only"
					}
					pairs++
					if len(got) != 1 {
						ids := make([]string, len(got))
						for k, r := range got {
							ids[k] = r.ID
						}
						t.Errorf("%s: %d rows %v, want one", name, len(got), ids)
						continue
					}
					if named && got[0].ID != sessionID {
						t.Errorf("%s: the row is %s, not the agent's session %s", name, got[0].ID, sessionID)
					}
				}
			}
		}
	}
	if pairs < 60 {
		t.Fatalf("only %d pairs judged", pairs)
	}
}

// The terminal is a pane on one server: another server's %3 is another
// pane, and its agent is not joined to this one's session (every server
// numbers its panes from %0).
func TestIdentityPanesOfAnotherServer(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	hook := *view("hook", running, false, at).rec
	other := view("tmux", running, false, at).obs
	other.Process.Pid, other.Screen.Pid = 9999, 9999
	other.Process.Tmux, other.Process.Tty, other.Screen.Tty = pane(serverB), "/dev/pts/7", "/dev/pts/7"
	scanned := view("procscan", running, false, at).obs
	scanned.Process.Pid, scanned.Process.Tmux, scanned.Process.Tty = 8888, pane(serverB), "/dev/pts/7"
	got := mergeAll([]session.Record{hook}, []Observation{*other, *scanned}, func(session.Record) bool { return true })
	ids := map[string]bool{}
	for _, r := range got {
		ids[r.ID] = true
	}
	if len(got) != 2 || !ids[sessionID] || !ids["tmux:%3"] {
		t.Fatalf("rows %v: want this server's session and the other server's pane apart, the scanned agent joined to its own pane", ids)
	}
	for _, r := range got {
		if r.ID == sessionID && r.Screen != nil {
			t.Errorf("another server's pane %%3 joined this server's session: %+v", r.Screen)
		}
		if r.ID == "tmux:%3" && (r.Process == nil || r.Process.Cwd != "/p") {
			t.Errorf("the scanned agent did not join its own server's pane: %+v", r.Process)
		}
	}
}

// A reused pid is another process, and a wrapper chain ends at the
// terminal's shell: what runs above it (a terminal app, tmux, another
// agent whose tool started this one) is not this agent.
func TestIdentityWrapperChainStopsAtTheShell(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	inner := *view("hook", running, false, at).rec
	inner.Process.Ancestors = []session.Ancestor{{Pid: shellPid, Name: "bash"}, {Pid: 77, Name: "claude"}}
	outer := Observation{Fallback: "proc:77", Agent: "claude", Process: session.Process{Pid: 77, StartMs: 5}}
	reused := Observation{Fallback: "proc:4242", Agent: "claude", Process: session.Process{Pid: agentPid, StartMs: agentStart + 60_000}}
	got := mergeAll([]session.Record{inner}, []Observation{outer, reused}, func(session.Record) bool { return true })
	if len(got) != 3 {
		ids := []string{}
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		t.Fatalf("rows %v: want the inner agent, the outer one and the reused pid apart", ids)
	}
}

// A shell's job: tmux runs a window's command under `sh -c 'claude …'`,
// and the shell stays the pane's foreground job; `env VAR=… claude` execs
// the agent (one pid). The pane's screen names the shell, the hooks the
// agent: one row.
func TestIdentityShellJob(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	hook := *view("hook", running, false, at).rec
	p := *hook.Process
	p.Tmux, p.Tty = nil, "" // only the process: no TMUX_PANE, no terminal
	p.Ancestors = []session.Ancestor{{Pid: 4201, Name: "sh"}, {Pid: 7, Name: "tmux: server"}}
	hook.Process = &p
	pane := view("tmux", running, false, at).obs
	pane.Process.Pid, pane.Process.StartMs, pane.Screen.Pid = 4201, agentStart-10, 4201
	got := mergeAll([]session.Record{hook}, []Observation{*pane}, func(session.Record) bool { return true })
	if len(got) != 1 || got[0].ID != sessionID || got[0].Screen == nil {
		t.Fatalf("%d rows: the `sh -c` pane and its agent's hooks apart", len(got))
	}
}

// Copilot CLI: its session log names the native process that holds the
// session (pid 4260, a child of the `node …/.bin/copilot` launcher 4242,
// which is what the pane and the process scan see), with the launcher and
// the shell as its wrapper chain. Log, screen and scan are one row under
// the session's id, before any hook (sessionStart comes with the first
// prompt) and with the hooks' record (which names the native process).
func TestIdentityCopilotLogJoinsItsPane(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	const native = 4260
	proc := session.Process{Pid: native, StartMs: agentStart + 300, Tty: "/dev/pts/3",
		Ancestors: []session.Ancestor{{Pid: agentPid, Name: "node"}, {Pid: shellPid, Name: "bash"}}}
	log := Observation{ID: sessionID, Agent: "copilot", Process: proc, Log: &session.LogState{State: session.Idle, At: at}}
	screen := view("tmux", running, false, at).obs
	screen.Agent, screen.Screen.Agent = "copilot", "copilot"
	scan := view("procscan", running, false, at).obs
	scan.Agent = "copilot"
	hookProc := proc
	hooked := session.Record{ID: sessionID, Agent: "copilot", Process: &hookProc, Hook: &session.HookState{State: session.Working, At: at}}
	for _, c := range []struct {
		name string
		recs []session.Record
	}{{"before the first prompt", nil}, {"with the hooks' record", []session.Record{hooked}}} {
		got := mergeAll(c.recs, []Observation{*screen, log, *scan}, func(session.Record) bool { return true })
		if len(got) != 1 || got[0].ID != sessionID || got[0].Log == nil || got[0].Screen == nil {
			ids := []string{}
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			t.Errorf("%s: rows %v, want one, %s, with the log and the screen", c.name, ids, sessionID)
		}
	}
}
