package e2e

// The real pi (driver.PiVersion) against the scripted chat completions API
// (package fakellm) as a custom provider, with Mew's extension installed
// (`mew install --agent pi`: ~/.pi/agent/extensions/mew.ts) and its tmux
// server as the screen source. pi asks nothing itself: the dialog is its
// shipped example extension permission-gate.ts, asking before `rm -rf`.
// pi has no event for it: Mew's extension sees it by wrapping the ctx.ui
// all extensions share (install/plugin.go), so its hooks say waiting and
// answered (goal 0.5 s), as the screen does. The CLI's own moment of each change is the earliest of its screen
// and its events (the driver's observer extension).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

var piCLI = agentCLI{
	name: driver.AgentPi, version: driver.PiVersion, find: driver.FindPi,
	apiURL:    func(s *fakellm.Server) string { return s.OpenAIURL },
	dialog:    regexp.MustCompile(`⚠️ Dangerous command:`),
	apiError:  regexp.MustCompile(`Error: Retry failed after 3 attempts`),
	stop:      []string{"Escape"},
	turnStart: func(h driver.HookSeen) bool { return h.Event == "agent_start" },
	turnEnd:   func(h driver.HookSeen) bool { return h.Event == "agent_end" },
	quit:      []string{"C-d"},
	// Only its permission gate (an example extension) asks, for rm -rf.
	// Trickled: a screen read sees the turn the model's answer makes run.
	shell: fakellm.DangerBrief, shellBrief: fakellm.DangerBrief,
	// It retries every API error: Down fails after its retries.
	failure: fakellm.Down,
	// The model is told the call was blocked; its answer ends the turn.
	denyGoesOn: true,
	stopEvent:  piEnded("aborted"),
	errorEvent: piEnded("error"),
}

// startPi starts pi and, at the end, waits for the hooks Mew's extension
// started: they run detached, outliving the pane (a hook may help fold
// others' events for up to hookbin.HelpFor), and would still write into
// the run's home while it is removed.
func startPi(t *testing.T) *agentScen {
	s := startCLI(t, piCLI)
	t.Cleanup(func() {
		s.r.Close() // before startCLI's cleanup: the pane's shell is gone too
		if pids := s.r.AwaitLeftovers(10 * time.Second); len(pids) > 0 {
			t.Logf("ended the processes still running in the run's folders: %v", pids)
		}
	})
	return s
}

// piEnded is the end of a run whose last reply stopped with reason.
func piEnded(reason string) func(driver.HookSeen) bool {
	return func(h driver.HookSeen) bool { return h.Event == "agent_end" && h.Kind == reason }
}

var piBlocked = regexp.MustCompile(`Blocked by user`)

// gateShown submits the danger scenario and returns when the gate's
// dialog is on the screen (no event of pi's says so).
func (s *agentScen) gateShown() driver.Snap {
	s.t.Helper()
	sent := s.prompt(fakellm.Prompt(fakellm.Danger))
	shown, err := s.r.WaitScreen(sent, s.cli.dialog, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("gate dialog → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	return shown
}

// A plain turn → done; the gate's dialog → waiting(permission), allowed
// (Enter: its highlighted Yes) → working → done, the command ran; Ctrl-D
// → exited. One row throughout, also across pi renaming its process from
// `node …/.bin/pi` to `pi` (startCLI's CheckRows).
func TestPiTurnsAndExit(t *testing.T) {
	c := piCLI
	s := startPi(t)
	// pi renames its process once its modules are loaded (node …/.bin/pi
	// before): by its first screen the name is pi, and the samples from
	// the launch on saw both.
	if name := piProcessName(t, s.r); name != "pi" {
		t.Logf("pi's process is named %q, not pi, at its first screen", name)
	}
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the plain turn's end", piEnded("stop"))
	s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, c.name, "its extension")

	shown := s.gateShown()
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("allowed → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	end = s.observed(a.Pressed, "the turn's end", piEnded("stop"))
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	bad := s.r.MewDuring(a.Gone.Add(fast), end.Add(-fast), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while the allowed command ran, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "allowed → working until the turn ends", len(bad) == 0, s.r.SamplesIn(a.Gone.Add(fast), end.Add(-fast)))
	if _, err := os.Stat(filepath.Join(s.r.Project, fakellm.DangerDir)); !os.IsNotExist(err) {
		t.Errorf("the allowed %q did not run: %v", fakellm.DangerCommand, err)
	}

	// Ctrl-D on the empty editor quits; pi prints nothing: its pane's shell
	// comes back.
	s.expect("quit → exited", s.quit(c.quit), exit, stateIs(session.Exited))
	// The process is gone at once, so its end decides what is shown; the
	// extension's session_shutdown (sent as pi exits) must still arrive.
	st := store.Store{Home: s.r.MewHome, Fold: hookbin.Fold}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		rec, err := st.Load(s.r.SessionID())
		if err == nil && rec.Hook != nil && rec.Hook.State == session.Exited {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the extension never reported pi's exit: %+v (%v)", rec.Hook, err)
		}
	}
}

// piProcessName is the name of pi's process: the foreground job of the
// pane's terminal (tpgid in the stat of the pane's process).
func piProcessName(t *testing.T, r *driver.Run) string {
	t.Helper()
	st, err := r.Tmux.Pane()
	if err != nil {
		t.Fatal(err)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", st.Pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 6 {
		t.Fatalf("stat of %d: %s", st.Pid, stat)
	}
	comm, err := os.ReadFile("/proc/" + f[5] + "/comm")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(comm))
}

// The gate denied with Escape ("Blocked by user": the tool fails, the
// model answers) → not waiting, then done; HTTP 500 on every request: pi
// retries three times, each attempt its own agent_end → agent_start, then
// says `Error: Retry failed after 3 attempts` → failed, never failed or
// done on the way; Escape while the answer streams → idle.
func TestPiDenyAndError(t *testing.T) {
	c := piCLI
	s := startPi(t)
	shown := s.gateShown()
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Escape → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	if _, err := s.r.WaitScreen(a.Pressed, piBlocked, cliTurn); err != nil {
		t.Fatal(err)
	}
	end := s.observed(a.Pressed, "the turn's end after the denial", piEnded("stop"))
	s.expect("turn ended after the denial → done", end, fast, stateIs(session.Done))
	if _, err := os.Stat(filepath.Join(s.r.Project, fakellm.DangerDir)); err != nil {
		t.Errorf("the denied %q ran: %v", fakellm.DangerCommand, err)
	}

	sent := s.prompt(fakellm.Prompt(fakellm.Down))
	first := s.observed(sent, "the first failed attempt", piEnded("error"))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	// The last attempt's agent_end comes within a few ms of the screen's
	// line, before or after it (8 ms after, under three CPU hogs): the end
	// of the attempt that started last before the line.
	lastStart := sent
	for _, h := range s.r.Hooks() {
		if c.turnStart(h) && h.At.After(lastStart) && !h.At.After(snap.At) {
			lastStart = h.At
		}
	}
	ref := snap.At
	if last, err := s.r.WaitHook(lastStart, piEnded("error"), 5*time.Second); err != nil {
		t.Errorf("no agent_end (error) of the last attempt: %v", err)
	} else if last.At.Before(ref) {
		ref = last.At
	}
	s.expect("retries exhausted → failed", ref, fast, stateIs(session.Failed))
	starts := 0
	for _, h := range s.r.Hooks() {
		if c.turnStart(h) && !h.At.Before(sent) && h.At.Before(ref) {
			starts++
		}
	}
	if starts != 4 {
		t.Errorf("pi started %d runs for the prompt, want 4 (the prompt and 3 retries): the scenario does not retry as measured", starts)
	}
	// From the first attempt's end (Mew may still show the last turn's
	// done until then, and for the goal after) to a little before the last
	// one's: the driver notes a hook when it reads pi's hook log, which on
	// a loaded machine can be after Mew showed it (failed 0 ms "before"
	// the last agent_end at load 35).
	const hookLead = 250 * time.Millisecond
	flap := s.r.MewDuring(first.Add(fast), ref.Add(-hookLead), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	for _, b := range flap {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while pi retried, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "retrying → working until the last attempt fails", len(flap) == 0, s.r.SamplesIn(first.Add(fast), ref.Add(-hookLead)))

	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	s.press(c.stop[0])
	stopped := s.observed(sent, "the stopped run's end", piEnded("aborted"))
	s.expect("Escape while working → idle", stopped, fast, stateIs(session.Idle))
}
