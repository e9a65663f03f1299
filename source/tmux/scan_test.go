package tmux

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Without a UTF-8 locale (Mew started by launchd has no LANG), tmux prints
// the tabs of list-panes' format and every non-ASCII character of a screen
// as "_" unless told -u: the pane and its ❯ prompt are still read.
func TestPanesAreReadWithoutAUTF8Locale(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	for _, k := range []string{"LANG", "LC_ALL", "LC_CTYPE"} {
		t.Setenv(k, "")
	}
	src := newSource(s)
	deadline := time.Now().Add(60 * time.Second)
	for {
		obs, err := src.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("observations %+v; want the agent's pane, blocked", obs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Two one-shot reads (`mew status` twice) by two sources sharing a memory
// file: the second knows the prompt the first saw went away; without the
// file it could not.
func TestScanRemembersBetweenOneShotReads(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen, idleScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	memory := MemoryFile(t.TempDir(), s.socket)
	scan := func(mem string, want string) session.ScreenState {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			src := newSource(s)
			src.Memory = mem
			obs, err := src.Scan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(obs) == 1 && obs[0].Screen.State == want {
				return *obs[0].Screen
			}
			if time.Now().After(deadline) {
				t.Fatalf("observations %+v; want the pane %s", obs, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	blocked := scan(memory, session.ScreenBlocked)
	s.tmux("send-keys", "-t", "work", "Enter") // the person answers
	idle := scan(memory, session.ScreenIdle)
	if !idle.Unblocked.After(blocked.Since) || !idle.Since.After(blocked.Since) {
		t.Fatalf("second read: unblocked %v, since %v; want both after the prompt was seen (%v)", idle.Unblocked, idle.Since, blocked.Since)
	}
	if fresh := scan("", session.ScreenIdle); !fresh.Unblocked.IsZero() {
		t.Fatalf("a read without memory knew the prompt went away: %+v", fresh)
	}
}

// Overlapping one-shot reads: a slow read that saw a pane earlier never
// overwrites what a later read saw (a prompt it saw would be forgotten).
func TestMemoryKeepsTheLatestReading(t *testing.T) {
	mem := MemoryFile(t.TempDir(), "sock")
	at := time.Unix(1_800_000_000, 0)
	write := func(state string, seen time.Time) {
		t.Helper()
		s := &Source{Memory: mem, panes: map[string]*pane{"%1": {id: "%1", agent: "gemini", fgAgent: "gemini"}}}
		s.panes["%1"].tracker.State = session.ScreenState{State: state, At: seen}
		if err := s.remember(); err != nil {
			t.Fatal(err)
		}
	}
	write(session.ScreenBlocked, at.Add(time.Second))
	write(session.ScreenWorking, at) // slower, older
	got := readMemory(mem)["%1"].Tracker.State
	if got.State != session.ScreenBlocked {
		t.Fatalf("memory %+v: an older reading replaced a newer one", got)
	}
	write(session.ScreenIdle, at.Add(2*time.Second))
	if got := readMemory(mem)["%1"].Tracker.State; got.State != session.ScreenIdle {
		t.Fatalf("memory %+v: a newer reading was not kept", got)
	}
}

// oneProc is a process table of one pane whose foreground job is proc.
type oneProc struct {
	proc proctree.Proc
	argv []string
}

func (o *oneProc) ForegroundGroup(int) (int, error) { return o.proc.Pid, nil }
func (o *oneProc) Get(int) (proctree.Proc, error)   { return o.proc, nil }
func (o *oneProc) Cmdline(int) ([]string, error)    { return o.argv, nil }

// A shell forks, and its child is a shell until it execs the agent: the
// same pid and start time, another program. A sweep that looked in
// between must not take the pane for a shell for good.
func TestAnExecIsANewForegroundJob(t *testing.T) {
	procs := &oneProc{proc: proctree.Proc{Pid: 200, Name: "bash", StartMs: 5}, argv: []string{"bash"}}
	src := &Source{Procs: procs, Now: time.Now}
	book := rules.Embedded()
	p := &pane{id: "%1", pid: 100}
	src.panes = map[string]*pane{"%1": p}
	if src.identify(book, p, paneInfo{id: "%1", pid: 100}) {
		t.Fatal("a shell's screen is to be read")
	}
	src.swept = time.Now()
	procs.proc.Name, procs.argv = "claude", []string{"claude"}
	if !src.sweepDue(src.swept.Add(screen.SweepEvery)) {
		t.Error("the exec did not make a sweep due")
	}
	if !src.identify(book, p, paneInfo{id: "%1", pid: 100}) || p.fgAgent != "claude" {
		t.Errorf("after the exec: agent %q, want claude", p.fgAgent)
	}
}

// A watcher started after another Mew saw a prompt (a restart of `mew
// watch --headless`) reports it since the time it appeared, not since the
// watcher's own start.
func TestWatchStartsFromMemory(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	memory := MemoryFile(t.TempDir(), s.socket)
	var seen session.ScreenState
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		src := newSource(s)
		src.Memory = memory
		obs, err := src.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
			seen = *obs[0].Screen
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("observations %+v; want the pane blocked", obs)
		}
	}
	src := newSource(s)
	src.Memory = memory
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan []source.Observation, 1)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, out) }()
	defer func() { cancel(); <-done }()
	for deadline := time.After(60 * time.Second); ; {
		select {
		case obs := <-out:
			if len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
				if !obs[0].Screen.Since.Equal(seen.Since) {
					t.Fatalf("the watcher has the prompt since %v, want %v (when it appeared)", obs[0].Screen.Since, seen.Since)
				}
				return
			}
		case <-deadline:
			t.Fatal("the watcher never saw the prompt")
		}
	}
}

// A first read with no memory file (a fresh watcher, a first one-shot
// read) dates a prompt from the window's last output, not from the read:
// the age of a wait Mew meets already waiting is the wait's own.
func TestFirstReadDatesTheStateFromTheLastOutput(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	var drawn time.Time
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if strings.Contains(s.tmux("capture-pane", "-p", "-t", "work"), "Do you want to proceed?") {
			drawn = time.Now()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the prompt was never drawn")
		}
	}
	// tmux keeps the activity in whole seconds: wait well past one, so a
	// state dated by the read would be later than the drawing.
	time.Sleep(2500 * time.Millisecond)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		obs, err := newSource(s).Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
			if since := obs[0].Screen.Since; since.After(drawn) {
				t.Fatalf("the prompt is dated %v, after it was drawn (%v)", since.Format(time.StampMilli), drawn.Format(time.StampMilli))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("observations %+v; want the pane blocked", obs)
		}
	}
}

func TestFirstStateSince(t *testing.T) {
	seen := time.Unix(1000, 0)
	for _, c := range []struct {
		activity, startMs int64
		want              time.Time
	}{
		{0, 0, seen},                      // tmux said nothing
		{990, 0, time.Unix(990, 0)},       // the last output
		{990, 995_000, time.Unix(995, 0)}, // never before the agent started
		{1005, 0, seen},                   // never after the read
		{990, 980_500, time.Unix(990, 0)}, // a start before the output
	} {
		if got := firstStateSince(seen, c.activity, c.startMs); !got.Equal(c.want) {
			t.Errorf("firstStateSince(%d, %d) = %v, want %v", c.activity, c.startMs, got, c.want)
		}
	}
}
