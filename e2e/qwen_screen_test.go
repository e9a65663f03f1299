package e2e

// Qwen Code read from its screen alone, as a person's `mew run -- qwen`
// with nothing installed is: no hooks at all, neither Mew's nor the
// driver's observer. With the observer (the screen walk it replaces) its
// turn ends were its Stop hook, which Qwen runs before it draws the turn's
// end (its screen-only "turn → done" read 0.8–2.3 s, part of it the hook's
// run), and the UserPromptSubmit hook held a turn's request up to 5 s: no
// person's `mew run -- qwen` has them. Without them
// no event of its own is seen: the references are its screen and the
// stand-in's request log, as for Grok CLI and Gemini CLI's bare walk.

import (
	"regexp"
	"testing"

	"github.com/mew-dev/mew/e2e/fakellm"
)

// qwenRunning is a turn running on Qwen Code's screen: its working row
// ("..  Almost there... probably... (1s · ↓ 5 tokens · esc to cancel)",
// also under an answered dialog; a capture taken mid-draw cut it before
// its ")") or its footer's steer hint, drawn only while a turn runs.
var qwenRunning = regexp.MustCompile(`\(\d+s · [^\n]*esc to cancel|Enter to steer · Ctrl\+Q to queue`)

// qwenLast is a reply's row as the last thing above the input box: no
// later prompt ("  > please …") under it. An earlier turn's reply higher
// up is no end of this turn (a capture taken mid-draw showed an old reply,
// this turn's first word and no input box, its working row cut: read as
// the end 2 s early). Qwen draws the turn over (no working row) before it
// redraws the whole reply: its first row, alone above the input box, is
// the end.
func qwenLast(reply string) *regexp.Regexp {
	return regexp.MustCompile(`(?:` + reply + `)[^>]*─{20,}[ ]*\n>`)
}

// qwenReplies are the walk's scenarios' replies as Qwen Code draws them:
// the first row (or the last, once the first scrolled off) of each.
var qwenReplies = func() map[string]*regexp.Regexp {
	hello, done := qwenLast(`◆\x{FE0E}? Hello from the fake model\.`), qwenLast(`◆\x{FE0E}? Done\.`)
	return map[string]*regexp.Regexp{
		fakellm.Text: hello, fakellm.Brief: hello,
		fakellm.Quote: qwenLast(`◆\x{FE0E}? The dialogs read:|Nobody is asked anything here\.`),
		fakellm.Long:  qwenLast(`Row \d+ of a long reply\.`),
		fakellm.Shell: done, fakellm.ShellBrief: done,
		fakellm.Ask: done, fakellm.AskBrief: done,
	}
}()

// qwenScreenCLI is qwenCLI with no observer: every reference its
// screen's or the stand-in's, and every class of its screen walk walked.
var qwenScreenCLI = func() agentCLI {
	c := qwenCLI
	c.noObserver = true
	c.turnStart, c.turnEnd, c.dialogEvent, c.answeredEvent, c.errorEvent = nil, nil, nil, nil, nil
	// Its idle_prompt after a denial or a dismissed question is a hook:
	// the next prompt is typed once the dialog is gone.
	c.denyEnd, c.questionEvent = nil, nil
	c.screenTurnEnd = screenTurnEndBy(qwenRunning, qwenReplies)
	// A prompt it took draws its working row, or its queue's count while
	// it finishes the turn before (a request after each turn), though the
	// request can come seconds later on a loaded machine: an Enter pressed
	// again then would answer the dialog the turn opens.
	c.taken = regexp.MustCompile(qwenRunning.String() + `|⏳ \d+ queued`)
	return c
}()

func TestConformQwenScreenBare(t *testing.T) {
	conformWalk(t, qwenScreenCLI, modeScreen, "kill")
}
