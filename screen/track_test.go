package screen

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

func frame(s string) rules.Frame { return rules.Frame{Rows: strings.Split(s, "\n")} }

func TestTrackerMemory(t *testing.T) {
	set := rules.Embedded().Set("claude")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) bool {
		return tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second))
	}

	idle := claudeBox("? for shortcuts")
	working := "✻ Burrowing…\n" + claudeBox("esc to interrupt")
	prompt := " Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend"
	interrupted := "  ⎿  Interrupted · What should Claude do instead?\n\n" + idle

	if !step(0, idle) || tr.State.State != session.ScreenIdle || tr.State.TurnEnded {
		t.Fatalf("fresh idle: %+v", tr.State)
	}
	step(1, working)
	if !step(2, prompt) || tr.State.State != session.ScreenBlocked || tr.State.Reason != session.ReasonPermission || !tr.State.Since.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("prompt: %+v", tr.State)
	}
	if !strings.HasPrefix(tr.State.Prompt, "Do you want to proceed?\n1. Yes") {
		t.Errorf("prompt text %q", tr.State.Prompt)
	}
	if want := []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}}; !slices.Equal(tr.State.Choices, want) {
		t.Errorf("choices %+v, want %+v", tr.State.Choices, want)
	}
	// A blank and an unrecognised frame keep the state.
	if step(3, "") || step(4, "half drawn ─────") || tr.State.State != session.ScreenBlocked {
		t.Fatalf("blank frame changed the state: %+v", tr.State)
	}
	step(5, working)
	if !tr.State.Unblocked.Equal(t0.Add(5 * time.Second)) {
		t.Errorf("unblocked at %v", tr.State.Unblocked)
	}
	step(6, idle)
	if !tr.State.TurnEnded {
		t.Errorf("working → idle is a finished turn: %+v", tr.State)
	}
	step(7, idle)
	if !tr.State.TurnEnded {
		t.Errorf("the finished turn was forgotten on the next frame")
	}
	step(8, working)
	step(9, interrupted)
	if tr.State.TurnEnded || tr.State.State != session.ScreenIdle {
		t.Errorf("an interrupted turn is not done: %+v", tr.State)
	}
	// First sight of a screen whose turn already ended.
	var fresh Tracker
	fresh.Observe(set, frame("● Done.\n✻ Worked for 2s · done 7:04 PM\n"+idle), t0)
	if !fresh.State.TurnEnded {
		t.Errorf("the finished-turn line was not read: %+v", fresh.State)
	}
}

// claudeBox is Claude Code 2.1.328's input box as it draws it at the
// bottom of the screen, with status on its footer row.
func claudeBox(status string) string {
	rule := strings.Repeat("─", 60)
	return rule + "\n❯\u00a0\n" + rule + "\n  ⏸ manual mode on · " + status
}

// Esc on a permission prompt leaves "⎿ Interrupted · What should Claude do
// instead?" in the transcript; the next turn that finishes is done, not
// idle, while that line is still on the screen (issue 22: every later turn
// read idle while it was anywhere on the visible rows).
func TestTrackerInterruptedLineScrolledIntoTheTranscript(t *testing.T) {
	set := rules.Embedded().Set("claude")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) {
		tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second))
	}
	bash := "❯ please bash\n\n● Creating a file\n"
	step(0, bash+" Do you want to proceed?\n ❯ 1. Yes\n   2. No\n\n Esc to cancel · Tab to amend")
	if tr.State.State != session.ScreenBlocked {
		t.Fatalf("the dialog: %+v", tr.State)
	}
	// As Claude Code 2.1.328 drew it in tmux: the transcript ends well
	// above the input box, a tip row over the box.
	escaped := bash + "  ⎿ \u00a0Interrupted · What should Claude do instead?\n" + strings.Repeat("\n", 16) +
		"                  tmux focus-events off · add 'set -g focus-events on' to ~/.tmux.conf\n"
	step(1, escaped+claudeBox("? for shortcuts"))
	if tr.State.State != session.ScreenIdle || !tr.State.Interrupted || tr.State.TurnEnded {
		t.Fatalf("Esc on the dialog: %+v, want idle, interrupted", tr.State)
	}
	next := escaped + "❯ please text\n\n"
	step(2, next+"✻ Burrowing…\n"+claudeBox("esc to interrupt"))
	step(3, next+"● Here you are.\n\n✻ Worked for 2s\n"+claudeBox("? for shortcuts"))
	if tr.State.State != session.ScreenIdle || tr.State.Interrupted || !tr.State.TurnEnded {
		t.Errorf("the next turn finished with the old Interrupted line above it: %+v, want idle, turn ended", tr.State)
	}
	// Esc again, on the new turn: interrupted again.
	step(4, next+"● Here\n  ⎿  Interrupted · What should Claude do instead?\n"+claudeBox("? for shortcuts"))
	if !tr.State.Interrupted || tr.State.TurnEnded {
		t.Errorf("a second Esc: %+v, want interrupted", tr.State)
	}
}

func TestTrackerOldErrorLineIsNotANewFailure(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := " >   Type your message or @path/to/file"
	step(0, idle)
	step(1, " > first\n ⠋ Thinking (esc to cancel, 1s)\n"+idle)
	step(2, " > first\n✕ [API Error: 500 Internal Server Error]\n"+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("a turn that ended in an API error: %+v", tr.State)
	}
	step(3, " > first\n✕ [API Error: 500 Internal Server Error]\n > second\n ⠙ Thinking (esc to cancel, 0s)\n"+idle)
	if tr.State.State != session.ScreenWorking {
		t.Fatalf("next turn: %+v", tr.State)
	}
	step(4, " > first\n✕ [API Error: 500 Internal Server Error]\n > second\n✦ Fine now.\n"+idle)
	if tr.State.State != session.ScreenIdle || !tr.State.TurnEnded {
		t.Fatalf("the old error line made a good turn look failed: %+v", tr.State)
	}
	step(5, " > second\n✦ Fine now.\n > third\n ⠙ Thinking (esc to cancel, 0s)\n"+idle)
	step(6, " > second\n✦ Fine now.\n > third\n✕ [API Error: 429 Too Many Requests]\n"+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("a new error after a good turn: %+v", tr.State)
	}
}

// A short turn that failed between two reads, after an earlier turn that
// failed: the screen never saw it run, but its new error row is a new
// failure, and its time is now (issue 22: Gemini's API error stayed done
// for 150 s; the screen's failed was older than the turn's end).
func TestTrackerSecondErrorUnseenTurnIsANewFailure(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := " >   Type your message or @path/to/file"
	step(0, " > first\n ⠋ Thinking (esc to cancel, 1s)\n"+idle)
	step(1, " > first\n✕ [API Error: 500 Internal Server Error]\n"+idle)
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(time.Second)) {
		t.Fatalf("the first failure: %+v", tr.State)
	}
	step(2, " > first\n✕ [API Error: 500 Internal Server Error]\n"+idle)
	if !tr.State.Since.Equal(t0.Add(time.Second)) {
		t.Fatalf("the same error read again moved its time: %+v", tr.State)
	}
	step(9, " > first\n✕ [API Error: 500 Internal Server Error]\n > second\n✕ [API Error: 500 Internal Server Error]\n"+idle)
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(9*time.Second)) {
		t.Errorf("a second error, its turn unseen: %+v, want failed since t0+9s", tr.State)
	}
}

// Gemini CLI runs its end-of-turn hooks after an API error with its
// spinner up: the screen reads working, but the error of this turn is
// drawn (ErrorShown); an error left from an earlier turn is not this one's.
func TestTrackerErrorShownWhileHooksRun(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := " >   Type your message or @path/to/file"
	hooks := " ⠸ Executing Hooks: mew-hook\n"
	step(0, " > first\n ⠋ Thinking (esc to cancel, 1s)\n"+idle)
	if tr.State.State != session.ScreenWorking || tr.State.ErrorShown {
		t.Fatalf("the turn runs: %+v", tr.State)
	}
	step(1, " > first\n✕ [API Error: 400 Bad Request]\n"+hooks+idle)
	if tr.State.State != session.ScreenWorking || !tr.State.ErrorShown {
		t.Fatalf("the error drawn while the hooks run: %+v, want working with the error shown", tr.State)
	}
	step(2, " > first\n✕ [API Error: 400 Bad Request]\n"+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("the hooks done: %+v", tr.State)
	}
	step(3, " > first\n✕ [API Error: 400 Bad Request]\n > second\n"+hooks+idle)
	if tr.State.State != session.ScreenWorking || tr.State.ErrorShown {
		t.Errorf("the next turn starts under the old error: %+v, want working, no error of its own", tr.State)
	}
}
