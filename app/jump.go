package app

import (
	"context"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/store"
)

// Jumper carries out the jumps of clicks on the panel and the menu, one at
// a time on the runner's goroutine: the record is read and the plan made
// there too, so the main thread only hands over an id.
type Jumper struct {
	Runner *jump.Runner
	Store  store.Store
	// Plan makes the plan for a record; jump.PlanFor on a Mac.
	Plan func(ctx context.Context, rec session.Record) jump.Plan
	// Remote plans the jump to a session on another machine (one this
	// machine has no record of); nil when there are no remotes.
	Remote func(ctx context.Context, id string) (jump.Plan, bool)
}

// Jump queues the jump to session id; done gets the result off the main
// thread (a result for every call, a dropped one included).
func (j *Jumper) Jump(id string, done func(jump.Result)) {
	j.Runner.Submit(func(ctx context.Context) jump.Plan { return j.planFor(ctx, id) }, done)
}

// planFor reads the session's record and plans its jump; a bad id or an
// unreadable record gives a plan that does nothing and says why.
func (j *Jumper) planFor(ctx context.Context, id string) jump.Plan {
	if !session.ValidID(id) {
		return jump.Plan{Precision: jump.None, Mechanism: "none", Why: "not a session id"}
	}
	rec, err := j.Store.Load(id)
	if err != nil && j.Remote != nil {
		if p, ok := j.Remote(ctx, id); ok {
			return p
		}
	}
	if err != nil {
		return jump.Plan{SessionID: id, Precision: jump.None, Mechanism: "none", Why: "cannot read the session: " + err.Error()}
	}
	return j.Plan(ctx, rec)
}

// JumpFeedback decides what the person hears of a jump: nothing when it
// worked or a newer click replaced it, a short error sound when nothing
// came forward (the message goes to the log).
func JumpFeedback(r jump.Result) (sound string) {
	if r.Dropped || r.Precision != jump.None {
		return ""
	}
	return JumpFailedSound
}

// JumpFailedSound is a macOS system sound, distinct from the alerts'.
const JumpFailedSound = "Funk"

// RemoteJump is Jumper.Remote for the sessions of hub: the jump to the
// ssh terminal and the pane there (jump.PlanRemote).
func RemoteJump(hub *remote.Hub, system func() jump.RemoteSystem) func(ctx context.Context, id string) (jump.Plan, bool) {
	return func(ctx context.Context, id string) (jump.Plan, bool) {
		s, r, ok := hub.Find(id)
		if !ok {
			return jump.Plan{}, false
		}
		return jump.PlanRemote(ctx, s, r, system()), true
	}
}
