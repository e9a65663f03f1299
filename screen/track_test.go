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

	idle := "❯ \n  ⏸ manual mode on · ? for shortcuts"
	working := "✻ Burrowing…\n❯ \n  ⏸ manual mode on · esc to interrupt"
	prompt := " Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend"
	interrupted := "  ⎿  Interrupted · What should Claude do instead?\n❯ \n  ⏸ manual mode on · ? for shortcuts"

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
	fresh.Observe(set, frame("● Done.\n✻ Worked for 2s · done 7:04 PM\n❯ \n  ⏸ manual mode on · ? for shortcuts"), t0)
	if !fresh.State.TurnEnded {
		t.Errorf("the finished-turn line was not read: %+v", fresh.State)
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
