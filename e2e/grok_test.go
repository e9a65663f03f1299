package e2e

// The real Grok CLI (driver.GrokVersion) against the scripted chat
// completions API (package fakellm, answering with Grok's bash tool). Grok
// CLI fires no hooks and Mew installs nothing for it: its screen in tmux is
// all Mew has (goal 1 s, where only the screen knows; 2 s for the exit,
// which its process says). The agent added through ARCHITECTURE.md's
// new-agent recipe: session name, the reducer's declaration, its rules
// file, these scenarios.

import (
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
	apiURL: func(s *fakellm.Server) string { return s.OpenAIURL }, noInstall: true,
	// For the conformance walk: no event of its own, its screen says all.
	dialog: grokDialog, apiError: grokFailed, stopped: grokInterrupted, stop: []string{"Escape"},
	streams: grokWorking,
	// The model answers the denial ("Done.", trickled: ShellBrief).
	shell: fakellm.ShellBrief, denyGoesOn: true,
	screenTurnEnd: screenTurnEndBy(grokRunning, grokReplies),
}

// grokReplies are the walk's scenarios' last rows as Grok CLI draws them.
var grokReplies = map[string]*regexp.Regexp{
	fakellm.Text: grokReply, fakellm.Brief: grokReply,
	fakellm.Quote: regexp.MustCompile(`Nobody is asked anything here\.`),
	fakellm.Long:  regexp.MustCompile(`Row 40 of a long reply\.`),
	fakellm.Shell: grokDone, fakellm.ShellBrief: grokDone,
}

// screenTurnEndBy is an agent's own end of the turn of scenario read
// from its screen alone (no event of its own seen): once the stand-in was
// asked for it, the screen drawn running, then the first screen with the
// scenario's reply and not running (an earlier turn's reply on the screen
// is no end of this one: the walk's replies trickle for 2 s).
func screenTurnEndBy(running *regexp.Regexp, replies map[string]*regexp.Regexp) func(*agentScen, time.Time, string) time.Time {
	return func(s *agentScen, since time.Time, scenario string) time.Time {
		s.t.Helper()
		deadline := time.Now().Add(cliTurn)
		at, ok := s.askedAt(since, fakellm.Prompt(scenario))
		for ; !ok && time.Now().Before(deadline); at, ok = s.askedAt(since, fakellm.Prompt(scenario)) {
			time.Sleep(50 * time.Millisecond) // the stand-in's log has no event to wait on
		}
		if !ok {
			s.t.Fatalf("%s never asked for %s", s.cli.name, scenario)
		}
		shown, err := s.r.WaitScreen(at, running, cliTurn)
		if err != nil {
			s.t.Fatal(err)
		}
		return s.replyWithoutWorking(shown.At, replies[scenario], running)
	}
}

// grokRunning is a turn running on Grok's screen: its working line, or
// the cursor under a streaming reply (an answer to a denial has no
// working line).
var grokRunning = regexp.MustCompile(`\(\d+s · .*esc to interrupt\)|(?m)^[ ]*█[ ]*\n(?:[ ]*\n)*[ ]*╭─{20,}`)

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

// Continue's scenario (turnsAndExit): a plain turn, the dialog allowed
// with Enter, then `exit` typed at its prompt.
func TestGrokTurnsAndExit(t *testing.T) {
	s := startCLI(t, grokCLI)
	s.turnsAndExit(screenOnlyCLI{agent: session.AgentGrok, working: grokWorking, reply: grokReply, done: grokDone,
		dialog: grokDialog, quit: func() time.Time {
			quit, ok := s.paneDeadBy(s.submit("exit").Add(gone))
			if !ok {
				t.Fatalf("Grok CLI did not exit within %v of `exit`", gone)
			}
			return quit
		}})
}

// The dialog cancelled with Escape → not waiting, never waiting again; a
// prompt → working, Escape while it runs ("[Operation cancelled by user]")
// → idle; an API error (HTTP 400) → failed.
func TestGrokDenyEscAndError(t *testing.T) {
	s := startCLI(t, grokCLI)
	// The model answers the denial ("Done.", trickled): the turn ends
	// after it.
	s.deniedWithEscape(grokDialog, grokDenied, s.shellDialogShown(grokDialog), func(denied time.Time) time.Time {
		return s.grokTurnEnded(denied, grokDone)
	})

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
