// Package combine derives the state Mew shows for a session from what each
// source last observed: Mew's hooks, Claude Code's own session registry and
// the liveness of the agent process. It is pure; every rule below is pinned
// by the recorded real runs in ../shared/fixtures (see combine_test.go and
// monitor's replay tests).
package combine

import (
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/session"
)

// Liveness is what the process check found.
type Liveness int

const (
	// Unknown: nothing to check (no pid recorded) or the check failed; the
	// sources decide.
	Unknown Liveness = iota
	Alive
	// Dead: the pid is gone, or now belongs to a process that started at
	// another time (pid reuse).
	Dead
)

// Registry statuses Claude Code writes.
const (
	regIdle    = "idle"
	regBusy    = "busy"
	regWaiting = "waiting"
)

// Combine returns the shown state of rec.
//
// The rules, and why:
//
//  1. A dead process means exited, whatever the files say: Claude Code can
//     die without a SessionEnd or without deleting its registry file.
//  2. A SessionEnd hook means exited (the person quit; the file may linger a
//     moment).
//  3. No registry status (older Claude Code, file gone, not yet written):
//     the hooks decide alone, exactly as without a registry.
//  4. No hook state (Mew's hooks not installed): the registry decides alone,
//     with less detail; its idle after a seen turn means done.
//  5. With both, the newer observation wins (the registry lags hooks by
//     0.1-0.3 s; hooks miss Esc entirely), with two refinements:
//     a. busy beats a hook-derived done however old it is: a background
//     subagent still runs, or Claude Code re-engaged by itself, and the
//     registry only goes idle when the turn has really ended;
//     b. a waiting registry takes its reason from the hooks when they say
//     waiting too (AskUserQuestion → question, ExitPlanMode → plan), since
//     the registry only says "input needed" for those.
//  6. The registry's idle, when newer, means done if a Stop came since the
//     last prompt, failed after a StopFailure, and idle otherwise (the person
//     interrupted or dismissed: no alert).
//
// The result names the source that decided it.
func Combine(rec session.Record, live Liveness) session.Shown {
	out := describe(rec)
	h, r := rec.Hook, rec.Registry
	hasReg := r != nil && !r.Gone && r.Status != ""

	switch {
	case live == Dead:
		out.State, out.Source = session.Exited, "process:gone"
		out.Since = deathTime(rec)
	case h != nil && h.State == session.Exited:
		setHook(&out, h)
	case !hasReg && h != nil:
		setHook(&out, h)
	case !hasReg:
		// Only a registry that has no status yet, or whose file is gone.
		out.State, out.Since, out.Source = session.Idle, registryTime(r), "registry:new"
		if r != nil && r.Gone {
			out.State, out.Source = session.Exited, "registry:gone"
		}
	case h == nil:
		registryAlone(&out, r)
	default:
		both(&out, h, r)
	}
	if out.State != session.Waiting {
		out.Reason, out.Tool, out.ToolDetail = "", "", ""
	}
	return out
}

// both applies rules 5 and 6.
func both(out *session.Shown, h *session.HookState, r *session.RegistryState) {
	hookNewer := !h.At.Before(r.At) // on a tie the hooks, which carry more detail, win
	switch r.Status {
	case regBusy:
		if h.State == session.Done || !hookNewer {
			out.State, out.Since, out.Source = session.Working, r.At, "registry:busy"
			return
		}
	case regWaiting:
		if !hookNewer || h.State == session.Waiting {
			out.State, out.Source = session.Waiting, "registry:waiting"
			out.Since = r.At
			out.Reason = reasonFromRegistry(r.WaitingFor)
			if h.State == session.Waiting {
				// The hooks know better why (and usually knew first).
				out.Reason, out.Tool, out.ToolDetail, out.Source = h.Reason, h.Tool, h.ToolDetail, h.Source
				if h.Since.Before(out.Since) {
					out.Since = h.Since
				}
			}
			return
		}
	case regIdle:
		if !hookNewer {
			switch {
			case h.Failure != "":
				out.State = session.Failed
			case h.StopSeen:
				out.State = session.Done
			default:
				out.State = session.Idle
			}
			out.Since, out.Source = r.At, "registry:idle"
			if h.State == out.State && h.Since.Before(r.At) {
				out.Since = h.Since // the same state, seen first by the hooks
			}
			return
		}
	}
	setHook(out, h)
}

// registryAlone applies rule 4.
func registryAlone(out *session.Shown, r *session.RegistryState) {
	out.Since, out.Source = r.At, "registry:"+r.Status
	switch r.Status {
	case regBusy:
		out.State = session.Working
	case regWaiting:
		out.State, out.Reason = session.Waiting, reasonFromRegistry(r.WaitingFor)
	case regIdle:
		out.State = session.Idle
		if r.TurnSeen {
			out.State = session.Done
		}
	default: // a status this Mew does not know: show the session, claim nothing
		out.State = session.Idle
	}
}

// reasonFromRegistry maps waitingFor ("permission prompt", "input needed").
func reasonFromRegistry(waitingFor string) session.Reason {
	switch waitingFor {
	case "permission prompt":
		return session.ReasonPermission
	case "plan approval", "plan":
		return session.ReasonPlan
	case "question":
		return session.ReasonQuestion
	}
	return session.ReasonInput
}

func setHook(out *session.Shown, h *session.HookState) {
	out.State, out.Reason, out.Since, out.Source = h.State, h.Reason, h.Since, h.Source
	out.Tool, out.ToolDetail = h.Tool, h.ToolDetail
}

// describe fills in what a person needs to see, whichever source has it.
func describe(rec session.Record) session.Shown {
	out := session.Shown{ID: rec.ID, Agent: rec.Agent}
	if out.Agent == "" {
		out.Agent = session.AgentClaude
	}
	if h := rec.Hook; h != nil {
		out.HooksSeen = true
		out.Cwd, out.Title, out.LastMessage = h.Cwd, h.Title, h.LastMessage
	}
	if r := rec.Registry; r != nil {
		out.Registry = true
		if out.Cwd == "" {
			out.Cwd = r.Cwd
		}
		if out.Title == "" {
			out.Title = r.Name
		}
		out.Pid, out.Tmux = r.Pid, r.Tmux
	}
	if p := rec.Process; p != nil {
		if p.Pid != 0 {
			out.Pid = p.Pid
		}
		out.Tty = p.Tty
		if out.Tmux == "" && p.Tmux != nil {
			out.Tmux = p.Tmux.Pane
		}
	}
	return out
}

// Project is the name a person knows the session by: the base name of its
// working directory.
func Project(cwd string) string {
	if cwd == "" {
		return "?"
	}
	return filepath.Base(cwd)
}

// deathTime is the best guess of when a dead session stopped: the last
// moment any source heard from it.
func deathTime(rec session.Record) (t time.Time) {
	if rec.Hook != nil {
		t = rec.Hook.At
	}
	if rec.Registry != nil && rec.Registry.At.After(t) {
		t = rec.Registry.At
	}
	return t
}

func registryTime(r *session.RegistryState) (t time.Time) {
	if r != nil {
		t = r.At
	}
	return t
}
