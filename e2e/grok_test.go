package e2e

// The real Grok CLI (driver.GrokVersion) against the scripted chat
// completions API (package fakellm, answering with Grok's bash tool). Grok
// CLI fires no hooks and Mew installs nothing for it: its screen in tmux is
// all Mew has (goal 1 s, where only the screen knows; 2 s for the exit,
// which its process says). The agent added through ARCHITECTURE.md's
// new-agent recipe: session name, the reducer's declaration, its rules
// file, these scenarios.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var (
	grokDialog      = regexp.MustCompile(`Do you want to proceed with this operation\?`)
	grokWorking     = regexp.MustCompile(`\(\d+s · .*esc to interrupt\)`)
	grokDenied      = regexp.MustCompile(`Operation cancelled by user \(pressed Escape\)`)
	grokInterrupted = regexp.MustCompile(`\[Operation cancelled by user\]`)
	grokFailed      = regexp.MustCompile(`Sorry, I encountered an error: .*400`)
	grokReply       = regexp.MustCompile(`Hello from the fake model\.`)
	grokDone        = regexp.MustCompile(`⏺ Done\.`)
)

// grokCLI is Grok CLI for the shared scenario runner (startCLI): nothing
// to install, the stand-in's chat completions API.
var grokCLI = agentCLI{name: driver.AgentGrok, version: driver.GrokVersion, find: driver.FindGrok,
	apiURL: func(s *fakellm.Server) string { return s.OpenAIURL }, noInstall: true}

// grokAsked waits for the stand-in to be asked for the reply why
// ("slow/0"): Grok CLI spends up to a second on a prompt before it sends
// it, and an Escape before that cancels nothing.
func grokAsked(t *testing.T, api *fakellm.Server, why string) {
	t.Helper()
	deadline := time.Now().Add(cliTurn)
	for time.Now().Before(deadline) {
		if slices.ContainsFunc(api.Log(), func(l fakellm.Logged) bool { return l.Why == why }) {
			return
		}
		time.Sleep(20 * time.Millisecond) // the stand-in's log has no event to wait on
	}
	t.Fatalf("Grok CLI never asked for %s; requests: %+v", why, api.Log())
}

// grokTurnEnded is Grok's own moment a turn ended: the first screen
// showing reply with the working line gone.
func (s *scen) grokTurnEnded(since time.Time, reply *regexp.Regexp) time.Time {
	return s.replyWithoutWorking(since, reply, grokWorking)
}

// grokDialogShown submits the shell scenario and returns when the dialog
// is on the screen.
func (s *agentScen) grokDialogShown() driver.Snap {
	s.t.Helper()
	sent := s.submit(fakellm.Prompt(fakellm.ShellBrief))
	shown, err := s.r.WaitScreen(sent, grokDialog, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("permission dialog → waiting(permission)", shown.At, screenOnly, waitingFor(session.ReasonPermission))
	return shown
}

// A plain turn → done; the dialog → waiting(permission), allowed (Enter on
// its first option, highlighted as it opens) → not waiting, the command
// ran, done; `exit` → exited. One row throughout (the screen and the
// process).
func TestGrokTurnsAndExit(t *testing.T) {
	s := startCLI(t, grokCLI)
	// Brief: a turn shorter than the 700 ms between two reads of the
	// screen is never seen running.
	sent := s.submit(fakellm.Prompt(fakellm.Brief))
	if _, err := s.r.WaitScreen(sent, grokWorking, cliTurn); err != nil {
		t.Fatal(err)
	}
	end := s.grokTurnEnded(sent, grokReply)
	res := s.expect("plain turn ended → done", end, screenOnly, stateIs(session.Done))
	if res.Shown.Agent != session.AgentGrok {
		t.Errorf("agent %q, want grok", res.Shown.Agent)
	}

	shown := s.grokDialogShown()
	a, err := s.r.Answer(grokDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("allowed → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	end = s.grokTurnEnded(a.Pressed, grokDone)
	s.expect("turn ended → done", end, screenOnly, stateIs(session.Done))
	if _, err := os.Stat(filepath.Join(s.r.Project, "made-by-agent")); err != nil {
		t.Errorf("the allowed %q did not run: %v", fakellm.ShellCommand, err)
	}

	at := s.submit("exit")
	quit, ok := s.paneDeadBy(at.Add(gone))
	if !ok {
		t.Fatalf("Grok CLI did not exit within %v of `exit`", gone)
	}
	s.expect("exit → exited", quit, exit, stateIs(session.Exited))
}

// The dialog cancelled with Escape → not waiting, never waiting again; a
// prompt → working, Escape while it runs ("[Operation cancelled by user]")
// → idle; an API error (HTTP 400) → failed.
func TestGrokDenyEscAndError(t *testing.T) {
	s := startCLI(t, grokCLI)
	shown := s.grokDialogShown()
	a, err := s.r.Answer(grokDialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Escape → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	denied, err := s.r.WaitScreen(a.Pressed, grokDenied, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	end := s.grokTurnEnded(denied.At, grokDone)
	if bad := s.r.MewDuring(end.Add(screenOnly), time.Now(), func(sh session.Shown, listed bool) bool {
		return listed && sh.State == session.Waiting
	}); len(bad) > 0 {
		sh, _ := bad[0].Find(s.r.SessionID())
		t.Errorf("after the denial Mew showed %s", driver.ShownString(sh))
	}

	sent := s.submit(fakellm.Prompt(fakellm.Slow))
	working, err := s.r.WaitScreen(sent, grokWorking, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("prompt sent → working", working.At, screenOnly, stateIs(session.Working))
	grokAsked(t, s.api, fakellm.Slow+"/0")
	esc := s.press("Escape")
	stopped, err := s.r.WaitScreen(esc, grokInterrupted, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("Esc while working → idle", stopped.At, screenOnly, stateIs(session.Idle))

	sent = s.submit(fakellm.Prompt(fakellm.Error))
	failed, err := s.r.WaitScreen(sent, grokFailed, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("API error → failed", failed.At, screenOnly, stateIs(session.Failed))
}
