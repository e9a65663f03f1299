package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
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

// Answers carries out the panel's answers off the main thread, one at a
// time, on the records of the monitor's latest update (what the panel
// shows).
type Answers struct {
	// Answer types c into rec's terminal; AnswerRecord with an
	// answer.Answerer in the app.
	Answer func(ctx context.Context, rec session.Record, c session.Choice) answer.Result
	// Remote answers a session of another machine (RemoteAnswer), false
	// for an id that is none; nil without remotes.
	Remote func(ctx context.Context, id string, c session.Choice) (answer.Result, bool)

	mu   sync.Mutex
	recs map[string]session.Record
	busy bool
}

// SetRecords takes the records of a monitor update (any goroutine).
func (a *Answers) SetRecords(recs []session.Record) {
	m := make(map[string]session.Record, len(recs))
	for _, r := range recs {
		m[r.ID] = r
	}
	a.mu.Lock()
	a.recs = m
	a.mu.Unlock()
}

// Submit starts an answer and returns at once; done gets the result on
// the answer's goroutine (the UI must hop to its own thread there). A
// click while an answer runs is refused, never queued: the screen it was
// made on may be gone by then.
func (a *Answers) Submit(id string, c session.Choice, done func(answer.Result)) {
	gone := answer.Result{Outcome: answer.Refused, Message: fmt.Sprintf("typed nothing: the session %s is gone", id)}
	a.mu.Lock()
	rec, local := a.recs[id]
	busy := a.busy
	if (local || a.Remote != nil) && !busy {
		a.busy = true
	}
	a.mu.Unlock()
	switch {
	case !local && a.Remote == nil:
		done(gone)
		return
	case busy:
		done(answer.Result{Outcome: answer.Refused, Message: "typed nothing: another answer is being typed"})
		return
	}
	go func() {
		var res answer.Result
		if local {
			res = a.Answer(context.Background(), rec, c)
		} else if r, ok := a.Remote(context.Background(), id, c); ok {
			res = r
		} else {
			res = gone
		}
		a.mu.Lock()
		a.busy = false
		a.mu.Unlock()
		done(res)
	}()
}

// RemoteAnswer is Answers.Remote for the sessions of hub: the mew on the
// session's machine types the answer (answer.OnRemote), over ssh (found by
// findSSH) run by run.
func RemoteAnswer(hub *remote.Hub, findSSH func() (string, error), run remote.RunFunc) func(ctx context.Context, id string, c session.Choice) (answer.Result, bool) {
	return func(ctx context.Context, id string, c session.Choice) (answer.Result, bool) {
		s, r, ok := hub.Find(id)
		if !ok {
			return answer.Result{}, false
		}
		switch {
		case s.Offline:
			return answer.Result{Outcome: answer.Refused, Message: fmt.Sprintf("typed nothing: %s cannot be reached now", r.Name)}, true
		case s.AnswerVia == "":
			return answer.Result{Outcome: answer.NoTerminal, Message: fmt.Sprintf("typed nothing: the mew on %s cannot type into that terminal", r.Name)}, true
		}
		ssh, err := findSSH()
		if err != nil {
			return answer.Result{Outcome: answer.Failed, Message: "typed nothing: " + err.Error()}, true
		}
		return answer.OnRemote(ctx, r, ssh, id, c, run), true
	}
}

// AnswerRecord is Answers.Answer with an answerer: where to type (Plan)
// and what the person chose on (WantFor), for this machine.
func AnswerRecord(a *answer.Answerer) func(ctx context.Context, rec session.Record, c session.Choice) answer.Result {
	return func(ctx context.Context, rec session.Record, c session.Choice) answer.Result {
		t := answer.Plan(rec, answer.LocalHost(a.Home))
		return a.Answer(ctx, t, answer.WantFor(rec, c))
	}
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
