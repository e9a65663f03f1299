package monitor

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

func screenObs(fallback, pane, tty string, pid int) Observation {
	p := session.Process{Pid: pid, Tty: tty}
	if pane != "" {
		p.Tmux = &session.Tmux{Pane: pane}
	}
	return Observation{Fallback: fallback, Agent: "claude", Process: p,
		Screen: &session.ScreenState{Agent: "claude", State: session.ScreenBlocked, Pane: pane, Tty: tty, Pid: pid}}
}

func TestMergeOneSessionPerProcess(t *testing.T) {
	now := time.Now()
	byRegistry := session.Record{ID: "reg", Registry: &session.RegistryState{Pid: 100, Status: "busy", At: now}}
	byHookPane := session.Record{ID: "hook-pane", Hook: &session.HookState{At: now}, Process: &session.Process{Pid: 200, Tty: "/dev/pts/2", Tmux: &session.Tmux{Pane: "%2", Socket: "/tmp/tmux-0/default"}}}
	oldInPane := session.Record{ID: "hook-pane-old", Hook: &session.HookState{At: now.Add(-time.Hour)}, Process: &session.Process{Pid: 150, Tmux: &session.Tmux{Pane: "%2"}}}
	byTty := session.Record{ID: "hook-tty", Hook: &session.HookState{At: now}, Process: &session.Process{Pid: 300, Tty: "/dev/pts/3"}}
	dead := session.Record{ID: "dead-in-pane", Hook: &session.HookState{At: now}, Process: &session.Process{Pid: 400, Tmux: &session.Tmux{Pane: "%4"}}}
	registryPane := session.Record{ID: "reg-pane", Registry: &session.RegistryState{Pid: 500, Status: "idle", Tmux: "main:@1.%5", At: now}}
	recs := []session.Record{byRegistry, byHookPane, oldInPane, byTty, dead, registryPane}
	alive := func(r session.Record) bool { return r.ID != "dead-in-pane" }

	obs := []Observation{
		screenObs("tmux:%1", "%1", "/dev/pts/1", 100), // same pid as the registry
		screenObs("tmux:%2", "%2", "/dev/pts/9", 201), // same pane, pid differs (a child)
		screenObs("run:77", "", "/dev/pts/3", 301),    // same terminal
		screenObs("tmux:%4", "%4", "/dev/pts/4", 0),   // only a dead session in that pane
		screenObs("tmux:%5", "%5", "/dev/pts/5", 0),   // Claude Code's registry names the pane
		screenObs("tmux:%6", "%6", "/dev/pts/6", 600), // nobody else
		{ID: "codex-1", Agent: "codex", Log: &session.LogState{State: session.Working, At: now}},
	}
	got := Merge(recs, obs, alive)
	byID := map[string]session.Record{}
	for _, r := range got {
		if _, dup := byID[r.ID]; dup {
			t.Fatalf("%s listed twice", r.ID)
		}
		byID[r.ID] = r
	}
	for id, wantScreen := range map[string]string{"reg": "%1", "hook-pane": "%2", "hook-tty": "/dev/pts/3", "tmux:%4": "%4", "reg-pane": "%5", "tmux:%6": "%6"} {
		r, ok := byID[id]
		if !ok || r.Screen == nil || (r.Screen.Pane != wantScreen && r.Screen.Tty != wantScreen) {
			t.Errorf("%s: screen %+v", id, r.Screen)
		}
	}
	for _, id := range []string{"tmux:%1", "tmux:%2", "run:77", "tmux:%5"} {
		if _, ok := byID[id]; ok {
			t.Errorf("%s listed beside the session of the same process", id)
		}
	}
	if byID["hook-pane-old"].Screen != nil || byID["dead-in-pane"].Screen != nil {
		t.Errorf("a screen went to an older or dead session of the same pane")
	}
	if r := byID["tmux:%6"]; r.Process == nil || r.Process.Tmux == nil || r.Process.Tmux.Pane != "%6" || r.Agent != "claude" {
		t.Errorf("a screen-only session has no process to jump to: %+v", r)
	}
	if r := byID["codex-1"]; r.Log == nil || r.Agent != "codex" {
		t.Errorf("an observation with an id: %+v", r)
	}
	if len(got) != len(recs)+3 {
		t.Errorf("%d records, want %d", len(got), len(recs)+3)
	}
}

func TestMergeKeepsANewerStoredScreen(t *testing.T) {
	now := time.Now()
	rec := session.Record{ID: "a", Hook: &session.HookState{}, Process: &session.Process{Pid: 9},
		Screen: &session.ScreenState{State: session.ScreenWorking, At: now}}
	got := Merge([]session.Record{rec}, []Observation{{Process: session.Process{Pid: 9}, Screen: &session.ScreenState{State: session.ScreenIdle, At: now.Add(-time.Second)}}}, nil)
	if got[0].Screen.State != session.ScreenWorking {
		t.Errorf("an older observation replaced a newer screen: %+v", got[0].Screen)
	}
}

// fakeSource sends what it is given.
type fakeSource struct{ sets chan []Observation }

func (f fakeSource) Name() string { return "fake" }
func (f fakeSource) Scan(context.Context) ([]Observation, error) {
	return []Observation{screenObs("tmux:%9", "%9", "/dev/pts/9", 0)}, nil
}
func (f fakeSource) Watch(ctx context.Context, out chan<- []Observation) error {
	for {
		select {
		case s := <-f.sets:
			out <- s
		case <-ctx.Done():
			return nil
		}
	}
}

func TestSourcesInSnapshotAndWatch(t *testing.T) {
	src := fakeSource{sets: make(chan []Observation)}
	o := Options{Store: store.Store{Home: t.TempDir(), Fold: hookbin.Fold}, Sources: []Source{src}, Now: time.Now}
	shown, errs := Snapshot(o)
	if len(errs) != 0 || len(shown) != 1 || shown[0].ID != "tmux:%9" || shown[0].State != session.Waiting || shown[0].Source != "screen:claude/blocked" {
		t.Fatalf("snapshot: %+v %v", shown, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := Watch(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if u := <-updates; len(u.Sessions) != 0 {
		t.Fatalf("before the source spoke: %+v", u.Sessions)
	}
	src.sets <- []Observation{screenObs("tmux:%3", "%3", "/dev/pts/3", 0)}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case u := <-updates:
			if len(u.Sessions) == 1 && u.Sessions[0].ID == "tmux:%3" && len(u.Records) == 1 {
				return
			}
		case <-deadline:
			t.Fatal("the source's observation never showed")
		}
	}
}

// slowToLetGo is a source that needs a moment after ctx ends to release
// what it holds (as the tmux source detaches its client).
type slowToLetGo struct{ released *atomic.Bool }

func (s slowToLetGo) Name() string                                { return "slow" }
func (s slowToLetGo) Scan(context.Context) ([]Observation, error) { return nil, nil }
func (s slowToLetGo) Watch(ctx context.Context, out chan<- []Observation) error {
	<-ctx.Done()
	time.Sleep(50 * time.Millisecond)
	s.released.Store(true)
	return nil
}

// A command drains Watch's channel before it exits: when the channel has
// closed, every source must have let go.
func TestWatchClosesAfterSourcesLetGo(t *testing.T) {
	var released atomic.Bool
	o := Options{Store: store.Store{Home: t.TempDir(), Fold: hookbin.Fold}, Sources: []Source{slowToLetGo{&released}}, Now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	updates, err := Watch(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	<-updates
	cancel()
	for range updates {
	}
	if !released.Load() {
		t.Fatal("the update channel closed while a source still held on")
	}
}

// lateSource reports its first observations a moment after it starts, as
// the tmux source does once its client has attached.
type lateSource struct{ after time.Duration }

func (s lateSource) Name() string                                { return "late" }
func (s lateSource) Scan(context.Context) ([]Observation, error) { return nil, nil }
func (s lateSource) Watch(ctx context.Context, out chan<- []Observation) error {
	select {
	case <-time.After(s.after):
	case <-ctx.Done():
		return nil
	}
	select {
	case out <- []Observation{screenObs("tmux:%4", "%4", "/dev/pts/4", 0)}:
	case <-ctx.Done():
	}
	<-ctx.Done()
	return nil
}

// A reader that takes only the first update (`mew status` reading a
// remote's feed) gets what the sources saw, not a list without screens.
func TestWatchFirstUpdateHasTheSourcesFirstReports(t *testing.T) {
	o := Options{Store: store.Store{Home: t.TempDir(), Fold: hookbin.Fold}, Sources: []Source{lateSource{after: 150 * time.Millisecond}}, Now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := Watch(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if u := <-updates; len(u.Sessions) != 1 || u.Sessions[0].ID != "tmux:%4" {
		t.Fatalf("first update: %+v", u.Sessions)
	}
}

// Codex's TUI killed mid-turn before its rollout's source paired it with
// the session (a loaded machine: measured in e2e TestCodexTUIKilledMidTurn):
// the record knows only the daemon, a child of the TUI, and a terminal UI
// gone without a pid; the pane, the shell back, names the TUI that left.
// One session, not a second row beside the turn still running.
func TestMergeAPaneWhoseAgentLeftJoinsTheDaemonItStarted(t *testing.T) {
	now := time.Now()
	daemon := session.Record{ID: "codex-1", Agent: "codex", Hook: &session.HookState{At: now},
		Process: &session.Process{Pid: 2867, StartMs: 5000, Name: "codex", Ancestors: []session.Ancestor{
			{Pid: 2576, Name: "codex"}, {Pid: 2562, Name: "bash", Exe: "/usr/bin/bash"}, {Pid: 2543, Name: "tmux: server"}}},
		Terminal: &session.Terminal{Gone: true, At: now}}
	left := Observation{Fallback: "tmux:%0", Agent: "codex",
		Process: session.Process{Pid: 2576, StartMs: 4000, Name: "codex", Tty: "/dev/pts/4",
			Tmux: &session.Tmux{Socket: "/tmp/t/tmux.sock", Pane: "%0"}},
		Screen: &session.ScreenState{Agent: "codex", State: session.ScreenWorking, Background: true, Via: "tmux", Pane: "%0", Tty: "/dev/pts/4"}}
	got := Merge([]session.Record{daemon}, []Observation{left}, func(session.Record) bool { return true })
	if len(got) != 1 || got[0].ID != "codex-1" || got[0].Screen == nil || !got[0].Screen.Background {
		t.Fatalf("want the one Codex session with the pane's screen, got %d records: %+v", len(got), got)
	}
	// Without the agent's process (how the pane was reported before), the
	// pane was a session of its own.
	left.Process.Pid, left.Process.StartMs = 0, 0
	if got := Merge([]session.Record{daemon}, []Observation{left}, func(session.Record) bool { return true }); len(got) != 2 {
		t.Errorf("the pane without its agent's process: %d records, want the pane apart (nothing joins it)", len(got))
	}
}
