package act

import (
	"context"
	"errors"
	"fmt"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

// Jumper carries out the jumps of the boards (a click on the panel or the
// menu, Enter on the terminal board), one at a time on the runner's
// goroutine (a newer jump replaces one still waiting): the session is
// looked up and the plan made there too, so the caller only hands over
// an id.
type Jumper struct {
	Runner   *jump.Runner
	Sessions *Sessions
	// Plan makes the plan for this machine's record; jump.PlanFor when nil.
	Plan func(ctx context.Context, rec session.Record) jump.Plan
	// System is what a jump to another machine's session reads of this
	// one; jump.LocalRemoteSystem when nil.
	System func() jump.RemoteSystem
}

// Submit queues the jump to session id; done gets the result off the
// caller's goroutine (a result for every call, a dropped one included).
func (j *Jumper) Submit(id string, done func(jump.Result)) {
	j.Runner.Submit(func(ctx context.Context) jump.Plan { return j.planID(ctx, id) }, done)
}

// Jump jumps to session id and waits for the result: where it went, or
// why nothing came forward (the terminal board's tui.Jumper).
func (j *Jumper) Jump(id string) (string, error) {
	done := make(chan jump.Result, 1)
	j.Submit(id, func(r jump.Result) { done <- r })
	r := <-done
	if r.Dropped || r.Precision == jump.None {
		return "", errors.New(r.Message)
	}
	return r.Message, nil
}

// planID looks session id up and plans its jump; a bad id or a session
// that is gone gives a plan that does nothing and says why.
func (j *Jumper) planID(ctx context.Context, id string) jump.Plan {
	if !session.ValidID(id) {
		return jump.Plan{Precision: jump.None, Mechanism: "none", Why: "not a session id"}
	}
	f, ok := j.Sessions.Get(id)
	if !ok {
		return jump.Plan{SessionID: id, Precision: jump.None, Mechanism: "none", Why: fmt.Sprintf("the session %s is gone", id)}
	}
	return j.PlanFound(ctx, f)
}

// PlanFound plans the jump to a found session: to its terminal here, or,
// for another machine's, to the local terminal running ssh to it and the
// session's pane there (jump.PlanRemote).
func (j *Jumper) PlanFound(ctx context.Context, f Found) jump.Plan {
	if f.OnRemote {
		sys := jump.LocalRemoteSystem
		if j.System != nil {
			sys = j.System
		}
		return jump.PlanRemote(ctx, f.Shown, f.Remote, sys())
	}
	if j.Plan != nil {
		return j.Plan(ctx, f.Record)
	}
	return jump.PlanFor(ctx, f.Record)
}
