package jump

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mew-dev/mew/terminal"
)

// DefaultPlanTimeout bounds gathering facts for one jump (a tmux query, a
// process-tree walk).
const DefaultPlanTimeout = 3 * time.Second

// Runner carries jumps out one at a time, off the caller's thread. A click
// while a jump runs waits; a newer click replaces the waiting one (the person
// wants the session clicked last), and the replaced one is reported as
// dropped. A jump that hangs is bounded by the per-step timeout.
type Runner struct {
	Exec        Exec
	StepTimeout time.Duration // per command; DefaultStepTimeout when 0
	PlanTimeout time.Duration // for the plan function; DefaultPlanTimeout when 0
	// Reached is shared with the answerer and the focus check: the apps
	// whose Apple Events went through in a step the person started.
	// nil: terminal.AppleEvents.
	Reached *terminal.Reached

	mu      sync.Mutex
	allowed map[string]bool // apps whose Apple Events went through (Options.Allowed)
	busy    bool
	pending *job
	idle    *sync.Cond
}

type job struct {
	plan func(ctx context.Context) Plan
	done func(Result)
}

// Submit queues a jump and returns at once. plan gathers the facts and
// makes the plan; it runs on the runner's goroutine, like the steps. done
// gets the result on the runner's goroutine (a dropped jump's result comes
// on the goroutine of the Submit that replaced it); the UI must hop to its
// own thread there.
func (r *Runner) Submit(plan func(ctx context.Context) Plan, done func(Result)) {
	r.mu.Lock()
	dropped := r.pending
	r.pending = &job{plan: plan, done: done}
	if !r.busy {
		r.busy = true
		go r.loop()
	}
	r.mu.Unlock()
	if dropped != nil && dropped.done != nil {
		dropped.done(Result{Precision: None, Dropped: true, Message: "did not jump: a newer jump replaced this one"})
	}
}

// Wait blocks until no jump runs or waits.
func (r *Runner) Wait() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idle == nil {
		r.idle = sync.NewCond(&r.mu)
	}
	for r.busy {
		r.idle.Wait()
	}
}

func (r *Runner) loop() {
	for {
		r.mu.Lock()
		j := r.pending
		r.pending = nil
		if j == nil {
			r.busy = false
			if r.idle != nil {
				r.idle.Broadcast()
			}
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		res := r.run(j)
		if j.done != nil {
			j.done(res)
		}
	}
}

func (r *Runner) run(j *job) Result {
	pt := r.PlanTimeout
	if pt <= 0 {
		pt = DefaultPlanTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), pt)
	p := j.plan(ctx)
	cancel()
	reached := r.Reached
	if reached == nil {
		reached = &terminal.AppleEvents
	}
	// An app the answerer reached (by bundle id) is allowed here too.
	allowed := func(app string) bool {
		return r.isAllowed(app) || app == p.Host && p.BundleID != "" && reached.Has(p.BundleID)
	}
	res := ExecuteWith(context.Background(), r.Exec, p, Options{StepTimeout: r.StepTimeout, Allowed: allowed})
	if len(res.Allowed) > 0 && slices.Contains(res.Allowed, p.Host) {
		reached.Add(p.BundleID) // the host's own scripts went through
	}
	r.mu.Lock()
	for _, app := range res.Allowed {
		if r.allowed == nil {
			r.allowed = map[string]bool{}
		}
		r.allowed[app] = true
	}
	r.mu.Unlock()
	return res
}

func (r *Runner) isAllowed(app string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.allowed[app]
}
