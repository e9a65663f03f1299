package tmux

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// A dialog nobody answers is not listed again at every tick: once a sweep
// changed nothing and the agent wrote nothing since, the panes wait for
// quietSweepEvery (no tmux process); the agent drawing anything makes the
// next tick sweep.
func TestAnUnwrittenScreenIsNotSweptAgain(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx := context.Background()
	s.tmux("send-keys", "-t", "work", s.fakeAgent(promptScreen, idleScreen), "Enter")
	r := Exec{Socket: s.socket}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		obs, err := src.sweep(ctx, r, rules.Embedded())
		if err == nil && len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked && src.still {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dialog was never read twice the same: %v %v", obs, err)
		}
	}
	now := src.Now()
	if src.sweepDue(now.Add(screen.SweepEvery)) {
		t.Fatal("a dialog nobody answers was swept again at the next tick")
	}
	if !src.sweepDue(now.Add(quietSweepEvery)) {
		t.Error("the panes were not listed after quietSweepEvery")
	}
	s.tmux("send-keys", "-t", "work", "Enter") // the agent draws its next screen
	for deadline := time.Now().Add(60 * time.Second); !src.sweepDue(now.Add(screen.SweepEvery)); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the agent's drawing did not make a sweep due")
		}
	}
	obs, err := src.sweep(ctx, r, rules.Embedded())
	if err != nil || len(obs) != 1 || obs[0].Screen.State == session.ScreenBlocked {
		t.Fatalf("after the answer: %v %v", obs, err)
	}
	if !src.sweepDue(src.Now().Add(screen.SweepEvery)) {
		t.Error("a sweep that changed the state was not followed by another")
	}
}
