package act

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// Answerer types the answers of the boards and of `mew answer` into the
// sessions found by Sessions: this machine's through the answer package,
// another machine's by the mew there, over ssh (answer.OnRemote).
type Answerer struct {
	Sessions *Sessions
	// Local types c into this machine's rec (LocalAnswer).
	Local func(ctx context.Context, rec session.Record, c session.Choice) answer.Result
	// FindSSH finds the ssh binary and Run runs it, for the remotes'
	// sessions; remote.FindSSH and remote.RunSSH when nil.
	FindSSH func() (string, error)
	Run     remote.RunFunc

	mu   sync.Mutex
	busy bool // Submit's answer runs
}

// LocalAnswer is Answerer.Local with a typist: where to type (answer.Plan)
// and what the person chose on (answer.WantFor), on this machine.
func LocalAnswer(a *answer.Answerer) func(ctx context.Context, rec session.Record, c session.Choice) answer.Result {
	return func(ctx context.Context, rec session.Record, c session.Choice) answer.Result {
		t := answer.Plan(rec, answer.LocalHost(a.Home))
		return a.Answer(ctx, t, answer.WantFor(rec, c))
	}
}

// Submit starts the answer to session id and returns at once; done gets
// the result on the answer's goroutine (the panel hops to its own thread
// there). An answer while another of Submit's runs is refused, never
// queued: the screen it was made on may be gone by then.
func (a *Answerer) Submit(id string, c session.Choice, done func(answer.Result)) {
	a.mu.Lock()
	busy := a.busy
	f, found := Found{}, false
	if !busy {
		if f, found = a.Sessions.Get(id); found {
			a.busy = true
		}
	}
	a.mu.Unlock()
	switch {
	case busy:
		done(answer.Result{Outcome: answer.Refused, Message: "typed nothing: another answer is being typed"})
		return
	case !found:
		done(answer.Result{Outcome: answer.Refused, Message: fmt.Sprintf("typed nothing: the session %s is gone", id)})
		return
	}
	go func() {
		res := a.AnswerFound(context.Background(), f, c)
		a.mu.Lock()
		a.busy = false
		a.mu.Unlock()
		done(res)
	}()
}

// Answer types c into session id and waits for the result (the terminal
// board's tui.Answerer, which runs one answer at a time itself).
func (a *Answerer) Answer(id string, c session.Choice) (string, error) {
	f, ok := a.Sessions.Get(id)
	if !ok {
		return "", fmt.Errorf("the session %s is gone", shortID(id))
	}
	res := a.AnswerFound(context.Background(), f, c)
	if res.Outcome != answer.Answered {
		return "", errors.New(res.Message)
	}
	return res.Message, nil
}

// AnswerFound types c into a found session: here with Local, on another
// machine by the mew there.
func (a *Answerer) AnswerFound(ctx context.Context, f Found, c session.Choice) answer.Result {
	if !f.OnRemote {
		return a.Local(ctx, f.Record, c)
	}
	t := RemoteTarget(f.Shown, f.Remote)
	if t.Via == "" {
		outcome := answer.NoTerminal
		if f.Shown.Offline {
			outcome = answer.Refused
		}
		return answer.Result{Outcome: outcome, Message: "typed nothing: " + t.Why, Started: time.Now()}
	}
	findSSH, run := a.FindSSH, a.Run
	if findSSH == nil {
		findSSH = remote.FindSSH
	}
	if run == nil {
		run = remote.RunSSH
	}
	ssh, err := findSSH()
	if err != nil {
		return answer.Result{Outcome: answer.Failed, Message: "typed nothing: " + err.Error()}
	}
	return answer.OnRemote(ctx, f.Remote, ssh, f.Shown.ID, c, run)
}

// Prompt is a found session as the person sees it (its state, reason and
// choices) and where an answer to it would be typed.
func Prompt(f Found, mewHome string) (session.Shown, answer.Target) {
	if f.OnRemote {
		return f.Shown, RemoteTarget(f.Shown, f.Remote)
	}
	return combine.Combine(f.Record, combine.Unknown), answer.Plan(f.Record, answer.LocalHost(mewHome))
}

// RemoteTarget is where an answer to session s of remote r goes: over ssh
// to the mew there, unless r cannot be reached or that mew cannot type
// into the session's terminal (Via "").
func RemoteTarget(s session.Shown, r remote.Remote) answer.Target {
	switch {
	case s.Offline:
		return answer.Target{Why: fmt.Sprintf("%s cannot be reached now", r.Name)}
	case s.AnswerVia == "":
		return answer.Target{Why: fmt.Sprintf("the mew on %s cannot type into that terminal: %s", r.Name, board.ElsewhereWhy)}
	}
	return answer.Target{Via: "ssh", Why: fmt.Sprintf("over ssh, by the mew on %s (%s)", r.Name, text.OneLine(s.AnswerVia, 32))}
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
