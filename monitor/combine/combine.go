// Package combine derives the state Mew shows for a session from what each
// source last observed: Mew's hooks, Claude Code's own session registry, an
// agent's own log, the screen and the liveness of the agent process
// (package liveness). It is pure; every rule below is pinned by the
// recorded real runs in testdata/fixtures at the repository's root (see
// combine_test.go and monitor's replay tests).
package combine

import (
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/monitor/liveness"
	"github.com/mew-dev/mew/session"
)

// Liveness is what the process check found: liveness.State, under the
// name combine's callers know it by.
type Liveness = liveness.State

// The liveness states (see liveness.State).
const (
	Unknown = liveness.Unknown
	Alive   = liveness.Alive
	Dead    = liveness.Dead
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
//  1. A dead process means exited, whatever the files say: an agent can
//     die without a SessionEnd or without deleting its registry file.
//  2. A SessionEnd hook means exited (the person quit; the file may linger a
//     moment).
//  3. A screen that shows a prompt waits on the person, whatever the
//     reports say (package screen): the dialog is drawn before any report
//     is written, and some agents report no wait at all. The hooks still
//     name the tool when they wait too.
//  4. Otherwise the newest agent report decides: hooks, Claude Code's
//     registry, the agent's own log (Codex's rollout). Between hooks and
//     registry (Claude Code):
//     a. no registry status (older Claude Code, file gone, not yet
//     written): the hooks decide alone, exactly as without a registry;
//     b. no hook state (Mew's hooks not installed): the registry decides
//     alone, with less detail; its idle after a seen turn means done,
//     unless the session's transcript says the person stopped the turn
//     (Esc: idle); a turn too short for Claude Code to write busy is seen
//     by its reply in the transcript after the idle (done since then);
//     c. with both, the newer observation wins (the registry lags hooks by
//     0.1-0.3 s; hooks miss Esc entirely), except that busy beats a
//     hook-derived done however old it is (a background subagent still
//     runs, or Claude Code re-engaged by itself; the registry only goes
//     idle when the turn has really ended), and a waiting registry takes
//     its reason from the hooks when they say waiting too (AskUserQuestion
//     → question, ExitPlanMode → plan), since the registry only says
//     "input needed" for those;
//     d. the registry's idle, when newer, means done if a Stop came since
//     the last prompt, failed after a StopFailure, and idle otherwise (the
//     person interrupted or dismissed: no alert), except while the hooks
//     hold the session working for a background subagent's hand-back
//     (session.HandBackHold: Claude Code's registry says idle for the
//     moment before the turn it starts by itself).
//     The agent's log joins as one more report: the newer of it and the
//     hooks/registry decides.
//  5. The screen corrects a report it has seen go stale: a wait that began
//     before the screen last saw a prompt go away is over (Esc on a prompt
//     fires no hook in Claude Code or Gemini CLI), a done turn (or one the
//     hooks say ended with no reply) whose screen shows an error since it
//     ended failed (Gemini CLI reports an API error as an ordinary end of
//     turn), and one whose screen shows the
//     person stopped it is idle (Gemini CLI reports Esc the same way).
//     A done turn whose screen still showed it running when last read,
//     within its settle time of the report (session.ScreenSettle, or the
//     agent's own report_settle), is working (settle); so is a turn only
//     Claude Code's registry says ended, on a tmux screen last read before
//     that report (unread).
//  6. The agent no longer in the terminal's foreground (the shell is back),
//     or its screen saying it exited, means exited, unless a report says a
//     turn still runs or waits: Codex's daemon keeps running a turn after
//     its terminal UI quits, and the session ends when that turn does.
//  7. With no report at all, the screen decides alone: its state, and idle
//     after a turn ran (working, then back at the prompt) is done.
//  8. A session whose terminal UI (Codex's TUI) is gone is exited once no
//     turn runs or waits, as in rule 6; see codex.go.
//
// A waiting session also gets its choices and how Mew can type one
// (answerable, in choices.go).
//
// The result names the source that decided it: "hook:<event>",
// "registry:<status>", "rollout:<event>", "screen:<agent>/<state>#<rule>",
// "process:gone", "process:terminal-gone", "codex:hooks-review" for a
// Codex on its hooks' review dialog (hooksReview), and "process:running"
// for a session only the process scan sees.
//
// Combine holds what waits on time (the hand-back, HoldUntil) for good:
// At decides it at a given moment.
func Combine(rec session.Record, live Liveness) session.Shown {
	return At(rec, live, time.Time{})
}

// At is Combine at the moment now: a hand-back hold whose time is over
// (session.HandBackHold) no longer keeps the session working. The zero
// time holds it.
func At(rec session.Record, live Liveness, now time.Time) session.Shown {
	var held bool
	rec.Hook, held = handBack(rec.Hook, now)
	out := describe(rec)
	h, sc := rec.Hook, rec.Screen

	switch {
	case live == Dead:
		out.State, out.Source = session.Exited, "process:gone"
		out.Since = deathTime(rec)
	case h != nil && h.State == session.Exited && !reopened(rec.Terminal, h):
		setHook(&out, h)
	case sc != nil && sc.State == session.ScreenBlocked && !sc.Background:
		screenAlone(&out, sc)
		if h != nil && h.State == session.Waiting {
			// The hooks know which tool waits, and whether it is a question.
			out.Reason, out.Tool, out.ToolDetail = h.Reason, h.Tool, h.ToolDetail
			// And when the wait began: the screen's Since is when this
			// Mew first saw the dialog (a watcher started while it
			// waited), unless a prompt went away since the hooks' wait.
			if !h.Since.IsZero() && h.Since.Before(out.Since) && !sc.Unblocked.After(h.Since) {
				out.Since = h.Since
			}
		}
	default:
		at, ok := report(&out, rec, held)
		switch {
		case ok:
			correctByScreen(&out, at, sc)
			if !finalDone(&out, rec.Log) {
				settle(&out, at, sc)
				unread(&out, at, sc, rec.Hook == nil && rec.Log == nil)
			}
			terminalGone(&out, at, rec.Terminal)
		case sc != nil:
			screenAlone(&out, sc)
		case hooksReview(&out, rec.Terminal):
		case rec.Registry == nil:
			// Only the process is known (the process scan): it runs,
			// nothing more is claimed.
			out.State, out.Source = session.Idle, "process:running"
			if p := rec.Process; p != nil && p.StartMs > 0 {
				out.Since = time.UnixMilli(p.StartMs).UTC()
			}
		default:
			r := rec.Registry
			// Only a registry that has no status yet, or whose file is gone.
			out.State, out.Since, out.Source = session.Idle, registryTime(r), "registry:new"
			if r.Gone {
				out.State, out.Source = session.Exited, "registry:gone"
			}
		}
	}
	if out.State != session.Waiting {
		out.Reason, out.Tool, out.ToolDetail = "", "", ""
	}
	out.Headless = headless(rec)
	answerable(&out, rec)
	inert(&out)
	return out
}

// report applies rule 4: the newest of the agent's reports decides. It
// returns the time of the deciding observation, and false when rec has no
// report at all.
func report(out *session.Shown, rec session.Record, held bool) (time.Time, bool) {
	h, r, lg := rec.Hook, rec.Registry, rec.Log
	hasReg := r != nil && r.Status != "" && (!r.Gone || lastWord(h, r))
	var at time.Time
	ok := true
	switch {
	case h != nil && !hasReg:
		setHook(out, h)
		at = h.At
	case h == nil && hasReg:
		registryAlone(out, r)
		at = r.At
	case h != nil:
		both(out, h, r, held)
		at = laterOf(h.At, r.At)
	default:
		ok = false
	}
	if lg != nil && lg.State != "" && (!ok || lg.At.After(at)) {
		out.State, out.Since, out.Source = lg.State, lg.Since, lg.Source
		at, ok = lg.At, true
	}
	return at, ok
}

// noReply is the source of a turn the hooks say ended with no reply
// (reducer.TurnNoReply; combine imports no reducer).
const noReply = "hook:TurnNoReply"

// screenSlack is how far a screen reading may lag the report it corrects:
// the screen is read every 700 ms.
const screenSlack = 2 * time.Second

// correctByScreen applies rules 5 and 6 to a report made at time at.
func correctByScreen(out *session.Shown, at time.Time, sc *session.ScreenState) {
	if sc == nil {
		return
	}
	switch {
	case out.State == session.Waiting && sc.State != "" && sc.Unblocked.After(out.Since):
		// The prompt the report waits on was seen going away.
		screenAlone(out, sc)
		if answering(sc) {
			// The first frames after a dialog closes show the bare input
			// box before the answer's work does: not yet idle.
			out.State, out.Source = session.Working, "screen:"+sc.Agent+"/answered"
		}
		return
	case (out.State == session.Done || out.Source == noReply) && sc.State == session.ScreenFailed && !sc.Since.Before(out.Since.Add(-screenSlack)):
		// A turn reported over (done, or idle with no reply: Gemini CLI's
		// API error) whose screen shows an error since failed. Not any
		// idle: a stopped turn's screen may still show an earlier error.
		out.State, out.Since, out.Source = session.Failed, sc.Since, screenSource(sc)
		return
	case out.State == session.Done && sc.State == session.ScreenWorking && sc.ErrorShown:
		// The error is drawn; what still runs is the end-of-turn hooks.
		out.State, out.Source = session.Failed, "screen:"+sc.Agent+"/failed"
		return
	case out.State == session.Done && sc.State == session.ScreenIdle && sc.Interrupted && !sc.Since.Before(out.Since.Add(-screenSlack)):
		out.State, out.Since, out.Source = session.Idle, sc.Since, screenSource(sc)
		return
	case out.State == session.Working && sc.State == session.ScreenIdle && sc.Interrupted && !sc.Background && sc.Since.After(at):
		// The person stopped the turn since it was reported running; the
		// report of it comes late, or never (Gemini CLI runs its
		// AfterAgent hook seconds after "Request cancelled" on a loaded
		// machine).
		out.State, out.Since, out.Source = session.Idle, sc.Since, screenSource(sc)
		return
	}
	busy := out.State == session.Working || out.State == session.Waiting
	if !busy && (sc.Background || sc.State == session.ScreenExited) {
		out.State, out.Source = session.Exited, screenSource(sc)
		out.Since = laterOf(at, sc.Since)
		if sc.Background {
			out.Source = "screen:background"
		}
	}
}

// settle applies rule 5's other half: a turn a report says ended, on a
// screen that still showed it running when last read, no later than
// the screen's Settle after the report, still runs. The screen decides
// before anything is shown: an error or an Esc it shows makes the turn
// failed or idle, and no "done" flashes on the way (Gemini CLI ends both
// with an ordinary AfterAgent, and draws them after). A screen that still
// shows the turn running after that is wrong, and the report decides.
// Only a tmux screen waits so: the monitor has it read at once on every
// report, and until a read that late (source.Nudger). An agent whose
// reports tell a stop and an error from a finished turn themselves
// (ReportFinal: OpenCode's plugin, Qwen Code's Stop/StopFailure) is not
// waited on: it draws its turn's end 0.1-0.6 s after reporting it.
func settle(out *session.Shown, at time.Time, sc *session.ScreenState) {
	if sc == nil || out.State != session.Done || sc.Via != "tmux" || sc.Background || sc.ReportFinal ||
		sc.State != session.ScreenWorking || !sc.At.Before(at.Add(sc.Settle())) {
		return
	}
	out.State, out.Since, out.Source = session.Working, sc.Since, screenSource(sc)
}

// unread applies rule 5 to a turn only the registry says ended (Claude
// Code without Mew's hooks: idle after busy): a tmux screen last read
// before that report has not seen how it ended. A refused request ends a
// turn in ~70 ms, before any read sees it run, and its error is drawn with
// the idle: done would show until the read the report nudges (source.
// Nudger) says failed. Until that read, the turn still runs; and a turn
// the screen drew running since that report is the next one.
func unread(out *session.Shown, at time.Time, sc *session.ScreenState, registryAlone bool) {
	if !registryAlone || sc == nil || out.State != session.Done || out.Source != "registry:idle" ||
		sc.Via != "tmux" || sc.Background {
		return
	}
	switch {
	case sc.At.Before(at):
		out.State, out.Source = session.Working, "screen:"+sc.Agent+"/unread"
	case sc.State == session.ScreenWorking && sc.Since.After(at):
		// The next turn drawn running since (the registry's busy lags
		// 0.1–0.3 s): after a failed turn, whose error row the new prompt
		// pushed up, done would show for that moment.
		out.State, out.Since, out.Source = session.Working, sc.Since, screenSource(sc)
	}
}

// finalDone: the turn shown done is one the agent's log called over for
// good (LogState.Final; Copilot CLI draws the turn running until its
// end-of-turn hooks and side requests are over, 0.5–2 s after it wrote
// so): nothing the screen shows later can make it failed or stopped.
func finalDone(out *session.Shown, lg *session.LogState) bool {
	return out.State == session.Done && lg != nil && lg.Final && lg.State == session.Done
}

// answering reports a tmux screen that went from a prompt to a plain idle
// (no sign the person stopped the turn, none that it ended) less than
// session.ScreenSettle before it was read: an approved dialog draws the
// input box a frame before the work it started. A dismissed one says so
// (Claude's "Interrupted", Gemini's "Request cancelled") or is reported
// by the hooks; one that says nothing reads idle once the settle time is
// over (the tmux source sends its reads until then).
func answering(sc *session.ScreenState) bool {
	return sc.Via == "tmux" && !sc.Background && sc.State == session.ScreenIdle && !sc.Interrupted && !sc.TurnEnded &&
		!sc.Since.After(sc.Unblocked) && sc.At.Before(sc.Unblocked.Add(session.ScreenSettle))
}

// screenAlone applies rule 7 (and rule 3's waiting).
func screenAlone(out *session.Shown, sc *session.ScreenState) {
	out.Since, out.Source = sc.Since, screenSource(sc)
	switch sc.State {
	case session.ScreenExited:
		out.State = session.Exited
	case session.ScreenBlocked:
		out.State, out.Reason = session.Waiting, sc.Reason
		if out.Reason == "" {
			out.Reason = session.ReasonInput
		}
		if out.ToolDetail == "" {
			// What waits, in the dialog's own words: Codex's "Hooks need
			// review" at start-up reads as that, not as a bare wait.
			out.ToolDetail = promptHead(sc.Prompt)
		}
	case session.ScreenWorking:
		out.State = session.Working
	case session.ScreenFailed:
		out.State = session.Failed
	case session.ScreenIdle:
		out.State = session.Idle
		if sc.TurnEnded {
			out.State = session.Done
		}
	default: // nothing recognised on it yet: show the session, claim nothing
		out.State = session.Idle
	}
	if sc.Background && out.State != session.Working {
		// A prompt the agent drew before the shell came back waits on
		// nobody (a screen-only session has no report of a turn that
		// still runs or waits).
		out.State, out.Source = session.Exited, "screen:background"
	}
}

func screenSource(sc *session.ScreenState) string {
	if sc.Rule != "" {
		return "screen:" + sc.Rule
	}
	return "screen:" + sc.Agent + "/" + sc.State
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// lastWord reports whether a registry whose file is gone keeps its say:
// its last status still overrules the hook events before it (Claude Code
// removes the file as it exits, and the hooks' wait it overruled, a prompt
// dismissed with Esc, must not come back for the moment until the process
// is seen gone). Only the monotonic clock orders the two here: the gone
// registry's wall time is when its file went, not when its status was set.
func lastWord(h *session.HookState, r *session.RegistryState) bool {
	return h != nil && h.AtMono != 0 && r.AtMono != 0 && r.AtMono > h.AtMono
}

// both applies rules 4c and 4d; held: the hooks hold the session working
// for a hand-back, which the registry's idle in between does not end.
func both(out *session.Shown, h *session.HookState, r *session.RegistryState, held bool) {
	hookNewer := hookIsNewer(h, r)
	switch r.Status {
	case regBusy:
		// A busy whose file went says nothing more of the turn.
		if (h.State == session.Done && !r.Gone) || !hookNewer {
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
		if !hookNewer && !held {
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

// handBack applies the hand-back hold: hooks that hold a session working
// for a background subagent's hand-back (session.HookState.HandBack) say
// done once session.HandBackHold has passed at now with no new turn. It
// returns the hook state to combine and whether the hold still runs.
func handBack(h *session.HookState, now time.Time) (*session.HookState, bool) {
	until := holdEnd(h)
	if until.IsZero() {
		return h, false
	}
	if now.IsZero() || now.Before(until) {
		return h, true
	}
	done := *h
	done.State, done.Since, done.Source = session.Done, h.HandBack, "hook:SubagentStop"
	return &done, false
}

// holdEnd is when the hooks' hand-back hold ends, zero for none.
func holdEnd(h *session.HookState) time.Time {
	if h == nil || h.HandBack.IsZero() || h.State != session.Working {
		return time.Time{}
	}
	return h.HandBack.Add(session.HandBackHold)
}

// HoldUntil is when At's verdict on rec may change with nothing else
// changing (a hand-back hold ends), zero for never: the monitor passes
// again then.
func HoldUntil(rec session.Record) time.Time { return holdEnd(rec.Hook) }

// registryAlone applies rule 4b.
func registryAlone(out *session.Shown, r *session.RegistryState) {
	out.Since, out.Source = r.At, "registry:"+r.Status
	switch r.Status {
	case regBusy:
		out.State = session.Working
	case regWaiting:
		out.State, out.Reason = session.Waiting, reasonFromRegistry(r.WaitingFor)
	case regIdle:
		out.State = session.Idle
		if r.TurnSeen && !r.Interrupted {
			out.State = session.Done // a turn ran and its transcript says it finished
			// A turn the registry never said busy for (too short) ended
			// after the idle, when its reply was written.
			out.Since = laterOf(r.At, r.LastTurnAt)
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
		out.Pid, out.Tmux = r.Pid, tmuxPane(r.Tmux)
		out.AgentVersion = r.Version
	}
	if lg := rec.Log; lg != nil {
		if out.Cwd == "" {
			out.Cwd = lg.Cwd
		}
		if out.Title == "" {
			out.Title = lg.Title
		}
		if out.LastMessage == "" {
			out.LastMessage = lg.LastMessage
		}
	}
	if p := rec.Process; p != nil {
		if p.Pid != 0 {
			out.Pid = p.Pid
		}
		if out.Cwd == "" {
			out.Cwd = p.Cwd
		}
		out.Tty = p.Tty
		if out.Tmux == "" && p.Tmux != nil {
			out.Tmux = p.Tmux.Pane
		}
		// Claude's registry names the pane its own way (`name:@7.%7`); the
		// server is known when that is the process's pane (%7).
		if p.Tmux != nil && p.Tmux.Pane != "" && (p.Tmux.Pane == out.Tmux || strings.HasSuffix(out.Tmux, "."+p.Tmux.Pane)) {
			out.TmuxServer = p.Tmux.Socket
		}
	}
	describeTerminal(&out, rec.Terminal)
	describeApp(&out, rec)
	out.Usage = latestUsage(rec)
	if sc := rec.Screen; sc != nil {
		if out.Pid == 0 {
			out.Pid = sc.Pid
		}
		if out.Tty == "" {
			out.Tty = sc.Tty
		}
		if out.Tmux == "" {
			out.Tmux = sc.Pane
		}
		if sc.Pane != "" && sc.Pane == out.Tmux {
			out.TmuxWindow = sc.Window
		}
		out.TerminalTitle = sc.Title
	}
	return out
}

// promptHead is the first line of a dialog's text, trimmed.
func promptHead(prompt string) string {
	for _, l := range strings.Split(prompt, "\n") {
		// A dialog drawn in a box or beside a gutter (OpenCode's "┃"):
		// the border is no part of what it asks.
		if l = strings.TrimFunc(l, spaceOrBorder); l != "" {
			return text.OneLine(l, 120)
		}
	}
	return ""
}

// spaceOrBorder: white space, or a box-drawing or block character.
func spaceOrBorder(r rune) bool {
	return unicode.IsSpace(r) || (r >= '\u2500' && r <= '\u259f')
}

// tmuxPane is the pane id of a place Claude Code's registry writes as
// "session:@window.%pane" (or a bare "%pane"): every place is said one way.
func tmuxPane(place string) string {
	if i := strings.LastIndexByte(place, '%'); i > 0 {
		return place[i:]
	}
	return place
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
	if rec.Log != nil && rec.Log.At.After(t) {
		t = rec.Log.At
	}
	if rec.Screen != nil && rec.Screen.Since.After(t) {
		t = rec.Screen.Since
	}
	return t
}

func registryTime(r *session.RegistryState) (t time.Time) {
	if r != nil {
		t = r.At
	}
	return t
}
