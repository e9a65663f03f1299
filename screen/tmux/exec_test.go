package tmux

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

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
				case <-time.After(5 * time.Second):
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

// One tmux process captures several panes; a pane gone since the list
// costs only itself.
func TestCaptureAll(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	a := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	b := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	r := Exec{Socket: s.socket}
	ctx := context.Background()
	var got map[string][]string
	for range 50 { // the fake agent draws its screen once started
		got = captureAll(ctx, r, []string{a, "%99", b, "not-a-pane"})
		if strings.Contains(strings.Join(got[a], "\n"), "Do you want to proceed?") && strings.Contains(strings.Join(got[b], "\n"), "Do you want to proceed?") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(got) != 2 || len(got[a]) != 32 || len(got[b]) != 32 {
		t.Fatalf("captured %d panes (%d, %d rows): %q", len(got), len(got[a]), len(got[b]), got)
	}
	if !strings.Contains(strings.Join(got[b], "\n"), "Do you want to proceed?") {
		t.Errorf("pane %s: %q", b, got[b])
	}
	for _, l := range append(got[a], got[b]...) {
		if strings.HasPrefix(l, "mew-capture-") {
			t.Errorf("the mark leaked into a screen: %q", l)
		}
	}
	if got := captureAll(ctx, r, nil); len(got) != 0 {
		t.Errorf("nothing to capture: %v", got)
	}
}

// While no pane runs an agent, the panes are listed only every
// quietSweepEvery; an agent started in a known pane is seen from the
// process table at once, without a tmux process.
func TestQuietServerIsListedLessOften(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx := context.Background()
	if obs, err := src.sweep(ctx, Exec{Socket: s.socket}); err != nil || len(obs) != 0 {
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
	for deadline := time.Now().Add(5 * time.Second); !src.sweepDue(now.Add(SweepEvery)); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("an agent started in the shell did not make a sweep due")
		}
	}
	if obs, err := src.sweep(ctx, Exec{Socket: s.socket}); err != nil || len(obs) != 1 {
		t.Fatalf("the agent: %v %v", obs, err)
	}
	if !src.sweepDue(src.Now().Add(time.Millisecond)) {
		t.Error("a pane with an agent was not due at every tick")
	}
}
