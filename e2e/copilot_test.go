package e2e

// The real GitHub Copilot CLI (driver.CopilotVersion) against the scripted
// chat completions API (package fakellm, which answers with Copilot's bash
// tool), bring-your-own-key and offline, with Mew's hooks installed (`mew
// install --agent copilot`: a hooks file of Mew's own in
// $COPILOT_HOME/hooks), its session log read by source/copilot and its tmux
// server as the screen source. The CLI's own moment of each change is the
// earliest of its screen and its own hooks (the driver's observer hooks
// file).

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var copilotCLI = agentCLI{
	name: driver.AgentCopilot, version: driver.CopilotVersion, find: driver.FindCopilot,
	apiURL:   func(s *fakellm.Server) string { return s.OpenAIURL },
	dialog:   regexp.MustCompile(`Do you want to run this command\?`),
	apiError: regexp.MustCompile(`(?m)^ ✗ \d{3} `),
	// The line under the turn Esc Esc stopped, with the idle footer back
	// below it (an older one stays in the transcript).
	stopped:   regexp.MustCompile(`● Operation cancelled by user[^\n]*\n(?:[^\n]*\n){1,8}[^\n]*· / commands · \? help[^\n]*\s*$`),
	stop:      []string{"Escape", "Escape"}, // "esc esc interrupt"
	turnStart: func(h driver.HookSeen) bool { return h.Event == "userPromptSubmitted" },
	turnEnd:   func(h driver.HookSeen) bool { return h.Event == "agentStop" },
	// The notification (permission_prompt) says a person is asked, before
	// the dialog is drawn; permissionRequest comes before Copilot's own
	// rules settle the call, so it is not the dialog's moment.
	dialogEvent: func(h driver.HookSeen) bool { return h.Event == "notification" },
	quit:        []string{"C-c", "C-c"}, // "ctrl+c again to exit"
	idleAgain:   copilotIdle,
	// In the walk (after a long reply) it ignored every Esc Esc while a
	// reply streamed in about half the runs, in every mode; its own
	// scenario (TestCopilotDenyAndError) stops one.
	unwalked:   []string{"esc"},
	errorEvent: func(h driver.HookSeen) bool { return h.Event == "errorOccurred" },
	// ask_user's form, drawn in place of the input box (a reply's rows
	// are indented under its ●); Enter takes its first choice, React.
	questionDialog: regexp.MustCompile(`(?m)^ Copilot needs information\.\s*$`),
	// Its notification (elicitation_dialog) comes as the form is drawn.
	questionEvent:  func(h driver.HookSeen) bool { return h.Event == "notification" && h.Kind == "elicitation_dialog" },
	questionQuote:  fakellm.QuoteCopilotAsk,
	questionQuoted: regexp.MustCompile(`Nothing is waiting for you here\.`),
	// Esc on its form: the model is told "User cancelled the request."
	// and answers, so the turn ends done.
	dismissGoesOn: true,
}

// startCopilot starts Copilot CLI; at the end it shows what its session log
// said (the scenarios' failures are easier read next to it).
func startCopilot(t *testing.T, c agentCLI) *agentScen {
	s := startCLI(t, c)
	t.Cleanup(func() {
		if !t.Failed() && os.Getenv("MEW_E2E_TIMELINE") == "" {
			return
		}
		if b, err := os.ReadFile(s.r.CopilotSessionLog()); err == nil {
			var types []string
			for _, l := range strings.Split(string(b), "\n") {
				if i := strings.Index(l, `"type":"`); i >= 0 {
					rest := l[i+8:]
					if j := strings.IndexByte(rest, '"'); j >= 0 {
						types = append(types, rest[:j])
					}
				}
			}
			t.Logf("Copilot's session log: %s", strings.Join(types, " "))
		}
	})
	return s
}

// copilotIdle is Copilot's idle footer in its bottom rows.
var copilotIdle = regexp.MustCompile(`· / commands · \? help · [^\n]*\n?$`)

var copilotAgain = regexp.MustCompile(`ctrl\+c again to exit`)

// quitCopilot presses Ctrl-C until Copilot asks for the second one (one
// pressed while it finishes a turn is taken by that), then the second, and
// returns when the pane died.
func (s *agentScen) quitCopilot() time.Time {
	s.t.Helper()
	for try := 0; ; try++ {
		at := s.press("C-c")
		if _, err := s.r.WaitScreen(at, copilotAgain, 5*time.Second); err == nil {
			break
		} else if try == 3 {
			s.t.Fatalf("Copilot never asked for a second Ctrl-C: %v; screen:\n%s", err, driver.Excerpt(s.r.Screen(), 8))
		}
	}
	s.press("C-c")
	return s.paneDead(turn)
}

// turnOver waits for the turn's end (agentStop) and for the idle footer.
func (s *agentScen) turnOver(since time.Time) time.Time {
	s.t.Helper()
	end := s.observed(since, "the turn's end", s.cli.turnEnd)
	if _, err := s.r.WaitScreen(end, copilotIdle, cliTurn); err != nil {
		s.t.Fatal(err)
	}
	return end
}

// A plain turn → done; the dialog → waiting(permission), allowed →
// working → done; Ctrl-C twice → exited. One row the whole time (the
// session log's session, the hooks' and the pane's are one).
func TestCopilotTurnsAndExit(t *testing.T) {
	c := copilotCLI
	s := startCopilot(t, c)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the plain turn's end", c.turnEnd)
	s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, c.name, "its hooks")
	s.turnOver(sent)

	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	left := s.expect("allowed → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	end = s.observed(a.Pressed, "the turn's end", c.turnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	s.workingWhileAllowedRuns(left, a.Gone, end)
	if _, err := os.Stat(s.r.Project + "/made-by-agent"); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	s.turnOver(a.Pressed)

	s.expect("quit → exited", s.quitCopilot(), exit, stateIs(session.Exited))
}

// The dialog denied with Esc → not waiting (no hook fires: the session
// log's permission.completed cancelled says so); an HTTP 500 once, retried
// (errorOccurred, recoverable) → never failed, done; an API error Copilot
// does not retry → failed (only the session log's session.error and the
// screen say so); Esc while a turn runs → idle (the log's abort).
func TestCopilotDenyAndError(t *testing.T) {
	c := copilotCLI
	s := startCopilot(t, c)
	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Esc → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	if _, err := s.r.WaitScreen(a.Pressed, copilotIdle, cliTurn); err != nil {
		t.Fatal(err)
	}

	sent := s.prompt(fakellm.Prompt(fakellm.Flaky))
	retry := s.observed(sent, "errorOccurred", func(h driver.HookSeen) bool { return h.Event == "errorOccurred" })
	end := s.turnOver(sent)
	s.expect("retried turn ended → done", end, fast, stateIs(session.Done))
	failed := s.r.MewDuring(retry, end, func(sh session.Shown, listed bool) bool { return listed && sh.State == session.Failed })
	for _, b := range failed {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while Copilot retried, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "retrying → never failed", len(failed) == 0, s.r.SamplesIn(retry, end))

	sent = s.prompt(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("API error → failed", snap.At, fast, stateIs(session.Failed))
	if _, err := s.r.WaitScreen(snap.At, copilotIdle, cliTurn); err != nil {
		t.Fatal(err)
	}

	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	stopped := s.interruptTwice(c.stopped, nil)
	s.expect("Esc while working → idle", stopped.At, fast, stateIs(session.Idle))
}

// Without `mew install`: what Mew reads of Copilot with no setup, its
// session log and its screen. The plain turn's end is the log's
// (assistant.turn_end); the dialog only the screen shows (goal 1 s); its
// end the log and the screen; the exit the process. Still one row.
func TestCopilotWithoutHooks(t *testing.T) {
	c := copilotCLI
	c.noInstall = true
	s := startCopilot(t, c)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.turnOver(sent)
	res := s.expect("plain turn ended → done (session log)", end, fast, stateIs(session.Done))
	if res.Shown.HooksSeen || res.Shown.Agent != c.name {
		t.Errorf("Mew's session %+v: want no hooks, agent %q", res.Shown, c.name)
	}

	sent = s.prompt(fakellm.Prompt(fakellm.Shell))
	shown, err := s.r.WaitScreen(sent, c.dialog, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("permission dialog → waiting(permission) (screen)", shown.At, time.Second, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Esc → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	if _, err := s.r.WaitScreen(a.Pressed, copilotIdle, cliTurn); err != nil {
		t.Fatal(err)
	}
	s.expect("quit → exited", s.quitCopilot(), exit, exitedOrGone)
}

// Copilot CLI under `mew run` in a tmux pane, with Mew's hooks: a turn →
// done, Ctrl-C twice → exited, one row from start to exit.
func TestMewRunInTmuxCopilot(t *testing.T) { mewRunInTmux(t, copilotCLI) }

// Copilot's permissionRequest hook fires before its own rules settle the
// call (issue 35): a command its --allow-tool rule allows runs with no
// dialog, though the hook fired. Mew waits on the notification that a
// person is asked, so it never shows a wait here, judged with the pane
// unread (the screen would hide a wrong wait from the hooks).
func TestCopilotAllowedByItsRules(t *testing.T) {
	c := copilotCLI
	s := startCLIWith(t, c, func(o *driver.Options) {
		o.Args = []string{"--model", "gpt-4.1", "--allow-tool", "shell(touch)"}
		hooksOnly(o)
	})
	sent := s.prompt(fakellm.Prompt(fakellm.ShellBrief))
	asked := s.observed(sent, "permissionRequest", func(h driver.HookSeen) bool { return h.Event == "permissionRequest" })
	end := s.observed(sent, "the turn's end", c.turnEnd)
	t.Logf("permissionRequest fired %v after the prompt; the turn ended %v after it", asked.Sub(sent).Round(time.Millisecond), end.Sub(asked).Round(time.Millisecond))
	if _, err := os.Stat(s.r.Project + "/made-by-agent"); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	if shown, err := s.r.WaitScreen(sent, c.dialog, 0); err == nil {
		t.Errorf("Copilot asked after all (at %s): the check proves nothing", s.r.TL.Rel(shown.At))
	}
	if h, err := s.r.WaitHook(sent, func(h driver.HookSeen) bool { return h.Event == "notification" }, 0); err == nil {
		t.Errorf("a notification (%s) came: nobody should have been asked", h.Kind)
	}
	s.expect("the allowed turn ended → done", end, fast, stateIs(session.Done))
	s.never("allowed by its rules: never waiting", sent, end.Add(settleAfter), shows(session.Waiting))
}

// An API error Copilot retries to the end (HTTP 500 on every request): its
// "✗ Failed to get response from the AI model" read from the screen alone →
// failed, and the turn after it → done, not failed again while the line
// stays on the screen (its rule matched the line anywhere). The walk's
// own error (HTTP 400) Copilot does not retry; this is its other line.
func TestConformCopilotScreenRetriedError(t *testing.T) {
	c := copilotCLI
	c.failure = fakellm.Down
	c.apiError = regexp.MustCompile(`(?m)^ ✗ Failed to get response from the AI model`)
	w := startWalk(t, c, modeScreen)
	w.fresh()
	w.plainTurn()
	w.apiError()
}
