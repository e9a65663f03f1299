package app

import (
	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// ClickKind is what a click on the panel does.
type ClickKind int

const (
	ClickNothing ClickKind = iota
	// ClickJump brings the session's terminal forward (a row, or the
	// "answer in the terminal" button).
	ClickJump
	// ClickAnswer types a choice into the session's terminal.
	ClickAnswer
)

// ClickAction is the decision for a click.
type ClickAction struct {
	Kind   ClickKind
	ID     string
	Choice session.Choice
}

// ClickAt decides what a click at a point of the panel, in logical
// pixels, does: a choice button answers (or, where Mew cannot type,
// jumps), anything else on a row jumps.
func (c *Controller) ClickAt(x, y int) ClickAction {
	if !c.shown || !c.framed {
		return ClickAction{}
	}
	h, ok := c.frame.HitAt(x, y)
	if !ok {
		return ClickAction{}
	}
	if h.Choice == 0 {
		return ClickAction{Kind: ClickJump, ID: h.ID}
	}
	for _, r := range c.rows {
		if r.Session.ID != h.ID {
			continue
		}
		switch a := board.Answer(r, h.Choice); a.Kind {
		case board.TypeAnswer:
			return ClickAction{Kind: ClickAnswer, ID: h.ID, Choice: a.Choice}
		case board.AnswerElsewhere:
			return ClickAction{Kind: ClickJump, ID: h.ID}
		}
	}
	// The frame is older than the rows (the prompt went meanwhile): do
	// nothing rather than answer what is no longer shown.
	return ClickAction{}
}

// AnswerFeedback is the sound for an answer's result: none when the
// prompt went away (the panel shows it), the jump's error sound when it
// did not.
func AnswerFeedback(r answer.Result) string {
	if r.Outcome == answer.Answered {
		return ""
	}
	return JumpFailedSound
}
