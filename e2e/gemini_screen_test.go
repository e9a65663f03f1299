package e2e

// Gemini CLI read from its screen alone, as a person's `mew run -- gemini`
// with nothing installed is: no hooks at all, neither Mew's nor the
// driver's observer. With the observer's hooks in its settings Gemini CLI
// draws their status ("Executing Hook: …") over its spinner row, which
// made the allow, deny and esc classes unreadable in TestConformGeminiScreen:
// an artifact of the suite, not of Gemini. Without them no event of its own
// is seen: the references are its screen and the stand-in's request log,
// as for Grok CLI.

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/fakellm"
)

// geminiRunning is a turn running on Gemini CLI's screen: its spinner row
// ("⠋ Thinking… (esc to cancel, 2s)").
var geminiRunning = regexp.MustCompile(`\(esc to cancel, |(?m)^ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] `)

// geminiReplies are the walk's scenarios' last rows as Gemini CLI draws
// them.
var geminiReplies = map[string]*regexp.Regexp{
	fakellm.Text: regexp.MustCompile(`✦ Hello from the fake model\.`), fakellm.Brief: regexp.MustCompile(`✦ Hello from the fake model\.`),
	fakellm.Quote: regexp.MustCompile(`Nobody is asked anything here\.`),
	fakellm.Long:  regexp.MustCompile(`Row 40 of a long reply\.`),
	fakellm.Shell: regexp.MustCompile(`✦ Done\.`), fakellm.ShellBrief: regexp.MustCompile(`✦ Done\.`),
}

// geminiScreenCLI is geminiCLI with no observer: every reference its
// screen's or the stand-in's, and every class walked.
var geminiScreenCLI = func() agentCLI {
	c := geminiCLI
	c.noObserver = true
	c.turnStart, c.turnEnd, c.dialogEvent, c.answeredEvent, c.errorEvent = nil, nil, nil, nil, nil
	c.screenBlind = nil
	// Its question is walked with the observer (TestConformGeminiScreen);
	// its replies here have no pattern for the ask scenarios' ends.
	c.questionDialog = nil
	c.streams = regexp.MustCompile(`Thinking it over slowly`)
	c.screenTurnEnd = geminiScreenTurnEnd
	// A prompt it took leaves its input box (started, or queued while it
	// initializes): on a loaded machine its request came 3 s after.
	c.taken = regexp.MustCompile(`(?m)^ >\s+Type your message`)
	return c
}()

// geminiScreenTurnEnd is Gemini CLI's own end of the turn of scenario:
// once the stand-in was asked for it, its spinner row, then the first
// screen with its reply and no spinner row (an earlier turn's reply on
// the screen is no end of this one: the walk's replies trickle for 2 s).
func geminiScreenTurnEnd(s *agentScen, since time.Time, scenario string) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(cliTurn)
	at, ok := s.askedAt(since, fakellm.Prompt(scenario))
	for ; !ok && time.Now().Before(deadline); at, ok = s.askedAt(since, fakellm.Prompt(scenario)) {
		time.Sleep(50 * time.Millisecond) // the stand-in's log has no event to wait on
	}
	if !ok {
		s.t.Fatalf("Gemini CLI never asked for %s", scenario)
	}
	running, err := s.r.WaitScreen(at, geminiRunning, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.replyWithoutWorking(running.At, geminiReplies[scenario], geminiRunning)
}

func TestConformGeminiScreenBare(t *testing.T) {
	conformWalk(t, geminiScreenCLI, modeScreen, "kill")
}
