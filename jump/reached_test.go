package jump

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/terminal"
)

// The runner and the answerer share what they learnt (terminal.Reached, by
// bundle id): after an iTerm2 answer went through, a jump to Terminal's
// tab still gets the prompt's time (Terminal was never reached), and a
// jump there records Terminal for the focus check; once Terminal is in the
// set, its script gets the usual bound.
func TestRunnerSharesReachedApps(t *testing.T) {
	var reached terminal.Reached
	reached.Add("com.googlecode.iterm2") // an answer went through
	front := frontIs("com.apple.Terminal")
	e := &scripted{answer: func(s Step) (string, error) {
		if out, ok := front(s); ok {
			return out, nil
		}
		return "ok\n", nil
	}}
	r := &Runner{Exec: e, Reached: &reached}
	jumpOnce := func() {
		r.Submit(func(context.Context) Plan { return terminalPlan() }, nil)
		r.Wait()
	}
	if reached.Has("com.apple.Terminal") {
		t.Fatal("Terminal reached before any step")
	}
	jumpOnce()
	if !reached.Has("com.apple.Terminal") {
		t.Fatal("the jump's script went through, but Terminal is not recorded for the focus check")
	}
	// A new runner (the set outlives it) gives Terminal's script the
	// usual bound at once.
	e.timeouts = nil
	r = &Runner{Exec: e, Reached: &reached, StepTimeout: 3 * time.Second}
	jumpOnce()
	if len(e.timeouts) == 0 || e.timeouts[0] != 3*time.Second {
		t.Fatalf("Terminal known to allow Mew, its script got %v", e.timeouts)
	}
}
