package tmux

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
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
		if got, _ = captureAll(ctx, r, []string{a, b, "not-a-pane"}); drawn(got, a) && drawn(got, b) {
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
	got, err := captureAll(ctx, r, []string{a, "%99", b})
	if calls != 4 || len(got) != 2 || !drawn(got, a) || !drawn(got, b) || err != nil {
		t.Errorf("with a gone pane: %d tmux processes, %d panes, %v: %q", calls, len(got), err, got)
	}
	if got, err := captureAll(ctx, r, nil); len(got) != 0 || err != nil {
		t.Errorf("nothing to capture: %v %v", got, err)
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
	// From the sweep's own time: on a loaded machine the sweep itself can
	// take longer than quietSweepEvery - SweepEvery.
	src.mu.Lock()
	now := src.swept
	src.mu.Unlock()
	if src.sweepDue(now.Add(screen.SweepEvery)) {
		t.Error("a quiet server was due for a sweep before quietSweepEvery")
	}
	if !src.sweepDue(now.Add(quietSweepEvery)) {
		t.Error("a quiet server was never due")
	}
	s.tmux("send-keys", "-t", "work", s.fakeAgent(promptScreen), "Enter")
	for deadline := time.Now().Add(60 * time.Second); !src.sweepDue(now.Add(screen.SweepEvery)); time.Sleep(20 * time.Millisecond) {
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

// 200 panes are more than one tmux command can capture (its message limit
// is 16 KiB): they are read in a few batched commands, not a process each.
func TestCaptureAllReadsManyPanes(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	const n = 200
	for i := 0; i < n; i += 50 {
		var args []string
		for j := i; j < i+50; j++ {
			if j > i {
				args = append(args, ";")
			}
			args = append(args, "new-window", "-d", "-t", "work", agent)
		}
		s.tmux(args...)
	}
	var ids []string
	for _, id := range strings.Fields(s.tmux("list-panes", "-a", "-F", "#{pane_id}")) {
		if id != "%0" { // the shell
			ids = append(ids, id)
		}
	}
	if len(ids) != n {
		t.Fatalf("%d panes made, want %d", len(ids), n)
	}
	var calls int
	r := countingRunner{Exec{Socket: s.socket}, &calls}
	var got map[string][]string
	var err error
	drawn := 0
	for range 100 { // the fake agents draw their screens once started
		calls = 0
		got, err = captureAll(context.Background(), r, ids)
		drawn = 0
		for _, id := range ids {
			if strings.Contains(strings.Join(got[id], "\n"), "Do you want to proceed?") {
				drawn++
			}
		}
		if drawn == n {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil || len(got) != n || drawn != n {
		t.Fatalf("%d of %d panes read, %d drawn: %v", len(got), n, drawn, err)
	}
	if calls > 4 {
		t.Errorf("%d tmux processes for %d panes, want a few batched commands", calls, n)
	}
}

// failingRunner fails every capture that names pane.
type failingRunner struct {
	r    Runner
	pane string
}

func (f failingRunner) Run(ctx context.Context, args ...string) ([]string, error) {
	if args[0] == "capture-pane" && slices.Contains(args, f.pane) {
		return nil, errors.New("tmux capture-pane: server busy")
	}
	return f.r.Run(ctx, args...)
}

// A pane whose screen cannot be read is listed with its last state, and
// said: never left out without a word.
func TestSweepSaysWhichPanesItCouldNotRead(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	a := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	b := strings.TrimSpace(s.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "work", agent))
	src := newSource(s)
	ctx := context.Background()
	blocked := func(obs []source.Observation) int {
		n := 0
		for _, o := range obs {
			if o.Screen.State == session.ScreenBlocked {
				n++
			}
		}
		return n
	}
	for i := 0; ; i++ {
		obs, err := src.sweep(ctx, Exec{Socket: s.socket}, rules.Embedded())
		if err != nil {
			t.Fatal(err)
		}
		if blocked(obs) == 2 {
			break
		}
		if i == 100 {
			t.Fatalf("the agents' prompts were never read: %+v", obs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, p := range src.panes {
		p.rowsOK = false // to be captured, not taken as unchanged since
	}
	obs, err := src.sweep(ctx, failingRunner{Exec{Socket: s.socket}, b}, rules.Embedded())
	var unread *UnreadPanes
	if !errors.As(err, &unread) || len(unread.IDs) != 1 || unread.IDs[0] != b || !strings.Contains(err.Error(), "server busy") {
		t.Errorf("error %v, want pane %s named as unread", err, b)
	}
	if len(obs) != 2 || blocked(obs) != 2 {
		t.Errorf("observations %+v, want %s and %s, both still blocked", obs, a, b)
	}
}

// A server of another user refuses the connection: that is said, not
// taken for no server at all (no sessions and no reason why).
func TestAnotherUsersServerIsSaid(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "default")
	l, err := net.Listen("unix", sock) // Run goes on only where a server's socket is
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, msg := range []string{"error connecting to " + sock + " (Permission denied)", "access not allowed"} {
		bin := t.TempDir()
		script := "#!/bin/sh\necho '" + msg + "' >&2\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin)
		_, err := Exec{Socket: sock}.Run(context.Background(), "list-panes", "-a")
		if err == nil || errors.Is(err, ErrNoServer) || !strings.Contains(err.Error(), sock+" is not one this user may use") || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want it said whose server it is", msg, err)
		}
	}
}

// Without a server socket there is no server: Run says so without running
// (or even finding) tmux, which may not be installed at all.
func TestRunWithoutSocketIsNoServer(t *testing.T) {
	dir := t.TempDir()
	if _, err := (Exec{Socket: filepath.Join(dir, "none")}).Run(context.Background(), "list-panes", "-a"); !errors.Is(err, ErrNoServer) {
		t.Errorf("no socket: %v, want ErrNoServer", err)
	}
	t.Setenv("TMUX_TMPDIR", dir)
	if _, err := (Exec{}).Run(context.Background(), "list-panes", "-a"); !errors.Is(err, ErrNoServer) {
		t.Errorf("no default socket under TMUX_TMPDIR: %v, want ErrNoServer", err)
	}
}

// A pane whose screen did not change since it was captured (no output to
// its window since, at the same size) is not captured again: a sweep of a
// dialog nobody answers runs list-panes alone, and still reports it. The
// next output is captured.
func TestUnchangedPaneIsNotCapturedAgain(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen, idleScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	src := newSource(s)
	ctx := context.Background()
	calls := 0
	r := countingRunner{Exec{Socket: s.socket}, &calls}
	state := func() string {
		t.Helper()
		obs, err := src.sweep(ctx, r, rules.Embedded())
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) != 1 {
			return ""
		}
		return obs[0].Screen.State
	}
	for deadline := time.Now().Add(60 * time.Second); state() != session.ScreenBlocked; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the dialog was never read")
		}
	}
	// tmux keeps the last output's time in seconds: a capture asked in a
	// later second has seen it.
	time.Sleep(1100 * time.Millisecond)
	state()
	calls = 0
	if got := state(); got != session.ScreenBlocked || calls != 1 {
		t.Errorf("an unchanged dialog: %q with %d tmux processes, want blocked with 1 (list-panes)", got, calls)
	}
	s.tmux("send-keys", "-t", "work", "Enter")
	for deadline := time.Now().Add(60 * time.Second); state() != session.ScreenIdle; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the screen after the dialog was never read")
		}
	}
}
