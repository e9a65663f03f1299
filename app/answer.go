package app

import (
	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// clickKind is what a click on the panel does.
type clickKind int

const (
	clickNothing clickKind = iota
	// clickJump brings the session's terminal forward (a row, or the
	// "answer in the terminal" button).
	clickJump
	// clickAnswer types a choice into the session's terminal.
	clickAnswer
)

// clickAction is the decision for a click.
type clickAction struct {
	Kind   clickKind
	ID     string
	Choice session.Choice
}

// ClickAt decides what a click at a point of the panel, in logical
// pixels, does: a choice button answers (or, where Mew cannot type,
// jumps), anything else on a row jumps.
func (c *controller) ClickAt(x, y int) clickAction {
	if !c.shown || !c.framed {
		return clickAction{}
	}
	h, ok := c.frame.HitAt(x, y)
	if !ok {
		return clickAction{}
	}
	if h.Choice == 0 {
		return clickAction{Kind: clickJump, ID: h.ID}
	}
	for _, r := range c.rows {
		if r.Session.ID != h.ID {
			continue
		}
		switch a := board.Answer(r, h.Choice); a.Kind {
		case board.TypeAnswer:
			return clickAction{Kind: clickAnswer, ID: h.ID, Choice: a.Choice}
		case board.AnswerElsewhere:
			return clickAction{Kind: clickJump, ID: h.ID}
		}
	}
	// The frame is older than the rows (the prompt went meanwhile): do
	// nothing rather than answer what is no longer shown.
	return clickAction{}
}

// answerFeedback is the sound for an answer's result: none when the
// prompt went away (the panel shows it), the jump's error sound when it
// did not.
func answerFeedback(r answer.Result) string {
	if r.Outcome == answer.Answered {
		return ""
	}
	return jumpFailedSound
}
