package tmux

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source"
)

// Mews come and go (every `mew status` over ssh starts one) while the
// person makes and closes sessions: the server must stay up, and nothing
// of Mew's stays on it. When Mew attached a control client of its own,
// tmux 3.3a crashed here within 50 ms.
func TestMewsComingAndGoingLeaveTheServerUp(t *testing.T) {
	s := startServer(t)
	s.tmux("new-window", "-t", "work", s.fakeAgent(promptScreen))
	deadline := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				ctx, cancel := context.WithCancel(context.Background())
				ch := make(chan []source.Observation, 4)
				done := make(chan error, 1)
				go func() { done <- newSource(s).Watch(ctx, ch) }()
				select {
				case obs := <-ch:
					if len(obs) != 1 {
						errs <- fmt.Errorf("mew %d saw %d agents, want 1", i, len(obs))
					}
				case <-time.After(60 * time.Second):
					errs <- fmt.Errorf("mew %d saw nothing", i)
				}
				cancel()
				<-done
			}
		}()
	}
	// The person, meanwhile.
	for n := 0; time.Now().Before(deadline); n++ {
		name := fmt.Sprintf("p%d", n)
		if out, err := exec.Command("tmux", "-S", s.socket, "new-session", "-d", "-s", name, "cat").CombinedOutput(); err != nil {
			t.Fatalf("the person's new-session: %v: %s", err, out)
		}
		exec.Command("tmux", "-S", s.socket, "kill-session", "-t", "="+name).Run()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	out, err := exec.Command("tmux", "-S", s.socket, "list-sessions", "-F", "#{session_name}").CombinedOutput()
	if err != nil {
		t.Fatalf("the tmux server did not survive: %v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "work" {
		t.Errorf("sessions left: %q, want only the person's", got)
	}
}

// One tmux process captures several panes, cut at the marks; a pane gone
// since the list costs only itself (each is then captured on its own).
func TestCaptureAll(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	a := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	b := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	ctx := context.Background()
	var calls int
	r := countingRunner{Exec{Socket: s.socket}, &calls}
	drawn := func(got map[string][]string, id string) bool {
		return strings.Contains(strings.Join(got[id], "\n"), "Do you want to proceed?")
	}
	var got map[string][]string
	for range 50 { // the fake agent draws its screen once started
		calls = 0
		if got = captureAll(ctx, r, []string{a, b, "not-a-pane"}); drawn(got, a) && drawn(got, b) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if calls != 1 || len(got) != 2 || len(got[a]) != 32 || len(got[b]) != 32 || !drawn(got, a) || !drawn(got, b) {
		t.Fatalf("batched: %d tmux processes, %d panes (%d, %d rows): %q", calls, len(got), len(got[a]), len(got[b]), got)
	}
	for _, l := range append(got[a], got[b]...) {
		if strings.HasPrefix(l, "mew-capture-") {
			t.Errorf("the mark leaked into a screen: %q", l)
		}
	}

	calls = 0
	got = captureAll(ctx, r, []string{a, "%99", b})
	if calls != 4 || len(got) != 2 || !drawn(got, a) || !drawn(got, b) {
		t.Errorf("with a gone pane: %d tmux processes, %d panes: %q", calls, len(got), got)
	}
	if got := captureAll(ctx, r, nil); len(got) != 0 {
		t.Errorf("nothing to capture: %v", got)
	}
}

type countingRunner struct {
	r     Runner
	calls *int
}

func (c countingRunner) Run(ctx context.Context, args ...string) ([]string, error) {
	*c.calls++
	return c.r.Run(ctx, args...)
}

// While no pane runs an agent, the panes are listed only every
// quietSweepEvery; an agent started in a known pane is seen from the
// process table at once, without a tmux process.
func TestQuietServerIsListedLessOften(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx := context.Background()
	if obs, err := src.sweep(ctx, Exec{Socket: s.socket}, rules.Embedded()); err != nil || len(obs) != 0 {
		t.Fatalf("a shell pane: %v %v", obs, err)
	}
	now := src.Now()
	if src.sweepDue(now.Add(SweepEvery)) {
		t.Error("a quiet server was due for a sweep before quietSweepEvery")
	}
	if !src.sweepDue(now.Add(quietSweepEvery)) {
		t.Error("a quiet server was never due")
	}
	s.tmux("send-keys", "-t", "work", s.fakeAgent(promptScreen), "Enter")
	for deadline := time.Now().Add(60 * time.Second); !src.sweepDue(now.Add(SweepEvery)); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("an agent started in the shell did not make a sweep due")
		}
	}
	if obs, err := src.sweep(ctx, Exec{Socket: s.socket}, rules.Embedded()); err != nil || len(obs) != 1 {
		t.Fatalf("the agent: %v %v", obs, err)
	}
	if !src.sweepDue(src.Now().Add(time.Millisecond)) {
		t.Error("a pane with an agent was not due at every tick")
	}
}
