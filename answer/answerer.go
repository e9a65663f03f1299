package answer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/tmux"
)

// Answerer carries answers out for one Mew home: one at a time across
// processes (a lock file: the board and `mew answer` must not type into
// the same terminal at once), each logged in answers.log.
type Answerer struct {
	Home  string // $MEW_HOME
	Rules func() (*rules.Book, []error)
	// Open opens the terminals of the other ways (iTerm2, `mew run`);
	// tests replace it. Nil: OpenTerminal.
	Open    func(ctx context.Context, t Target) (Terminal, error)
	Options Options
	// LockWait bounds the wait for another answer to finish (2 s when 0).
	LockWait time.Duration
}

// Answer types w's choice into rec's terminal t (see Do), logs it and
// returns what happened.
func (a *Answerer) Answer(ctx context.Context, t Target, w Want) Result {
	started := time.Now()
	if a.Options.Now != nil {
		started = a.Options.Now()
	}
	res := a.answer(ctx, t, w)
	if res.Started.IsZero() {
		res.Started = started
	}
	res.Via = t.Via
	e := Entry{
		At: res.Started, Session: w.SessionID, Agent: w.Agent, Via: t.Via, Choice: w.Choice,
		Rule: res.Rule, Prompt: res.Prompt, Keys: res.Keys, Outcome: res.Outcome, Message: res.Message,
		Ms: res.Took().Milliseconds(),
	}
	if e.Prompt == "" {
		e.Rule, e.Prompt = w.Rule, w.Prompt
	}
	if err := AppendLog(LogPath(a.Home), e); err != nil && res.Outcome == Answered {
		res.Message += fmt.Sprintf(" (not logged: %v)", err)
	}
	return res
}

func (a *Answerer) answer(ctx context.Context, t Target, w Want) Result {
	if t.Via == "" {
		return Result{Outcome: NoTerminal, Message: t.Why}
	}
	book, _ := a.Rules()
	set := book.Set(w.Agent)
	if set == nil || set.Answer == nil {
		return Result{Outcome: NoTerminal, Message: fmt.Sprintf("Mew does not know how to answer %q prompts: answer in the terminal", w.Agent)}
	}
	wait := a.LockWait
	if wait <= 0 {
		wait = 2 * time.Second
	}
	if err := os.MkdirAll(a.Home, 0o700); err != nil {
		return Result{Outcome: Failed, Message: fmt.Sprintf("typed nothing: %v", err)}
	}
	fl := flock.New(filepath.Join(a.Home, "answer.lock"), flock.SetPermissions(0o600))
	lctx, cancel := context.WithTimeout(ctx, wait)
	ok, err := fl.TryLockContext(lctx, 10*time.Millisecond)
	cancel()
	switch {
	case !ok && (err == nil || errors.Is(err, context.DeadlineExceeded)):
		return Result{Outcome: Refused, Message: "typed nothing: another answer is being typed"}
	case err != nil:
		return Result{Outcome: Failed, Message: fmt.Sprintf("typed nothing: cannot take the answer lock: %v", err)}
	}
	defer fl.Close()
	defer fl.Unlock()

	term, err := a.open(ctx, t)
	if err != nil {
		return Result{Outcome: Failed, Message: fmt.Sprintf("typed nothing: cannot reach the terminal (%s): %v", t.Why, err)}
	}
	return Do(ctx, term, set, w, a.Options)
}

func (a *Answerer) open(ctx context.Context, t Target) (Terminal, error) {
	if t.Via == ViaTmux {
		// A `tmux` process per command (~2 ms each), never a control-mode
		// client: see package tmux.
		return NewTmuxTerminal(tmux.Exec{Socket: t.Socket}, t.Pane)
	}
	open := a.Open
	if open == nil {
		open = OpenTerminal
	}
	return open(ctx, t)
}

// OpenTerminal opens the terminal of a Target that is not a tmux pane.
func OpenTerminal(ctx context.Context, t Target) (Terminal, error) {
	switch t.Via {
	case ViaITerm:
		return NewITermTerminal(t.ITermSession)
	case ViaRun:
		return NewRunTerminal(t.Run)
	}
	return nil, fmt.Errorf("Mew cannot type into %q terminals", t.Via)
}
