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
	c.screenTurnEnd = screenTurnEndBy(geminiRunning, geminiReplies)
	// A prompt it took leaves its input box (started, or queued while it
	// initializes): on a loaded machine its request came 3 s after.
	c.taken = regexp.MustCompile(`(?m)^ >\s+Type your message`)
	return c
}()

func TestConformGeminiScreenBare(t *testing.T) {
	conformWalk(t, geminiScreenCLI, modeScreen, "kill")
}
