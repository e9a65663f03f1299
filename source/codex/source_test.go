package codex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/procscan"
)

// clock is a settable time for a source under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func dayDir(home string, t time.Time) string {
	t = t.Local()
	return filepath.Join(home, "sessions", t.Format("2006"), t.Format("01"), t.Format("02"))
}

// sessionID makes a UUIDv7 session id created at t.
func sessionID(t time.Time, n int) string {
	ms := fmt.Sprintf("%012x", t.UnixMilli())
	return fmt.Sprintf("%s-%s-7000-8000-%012d", ms[:8], ms[8:], n)
}

func find(obs []source.Observation, id string) (source.Observation, bool) {
	for _, o := range obs {
		if o.ID == id {
			return o, true
		}
	}
	return source.Observation{}, false
}

// Watch follows rollouts as they are appended, day folders that appear at
// midnight, and the TUI going away.
func TestWatch(t *testing.T) {
	home := t.TempDir()
	day1 := time.Date(2026, 12, 1, 23, 59, 0, 0, time.Local)
	c := &clock{t: day1}
	var tuiMu sync.Mutex
	tuiAlive := true
	id1, id2 := sessionID(day1, 1), sessionID(day1.Add(2*time.Minute), 2)
	src := &Source{
		Home: home, Now: c.now, Poll: 30 * time.Millisecond,
		Procs: func(context.Context) ([]procscan.Proc, error) {
			tuiMu.Lock()
			defer tuiMu.Unlock()
			if !tuiAlive {
				return nil, nil
			}
			return []procscan.Proc{{Pid: 42, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/9", Cwd: "/p", StartMs: day1.Add(-time.Minute).UnixMilli()}}, nil
		},
		Environ: func(int, []string) (map[string]string, error) { return nil, nil },
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, out) }()
	wait := func(what string, ok func([]source.Observation) bool) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			select {
			case obs := <-out:
				if ok(obs) {
					return
				}
			case <-deadline:
				t.Fatalf("never saw %s", what)
			}
		}
	}
	state := func(id string, st session.State) func([]source.Observation) bool {
		return func(obs []source.Observation) bool {
			o, ok := find(obs, id)
			return ok && o.Log != nil && o.Log.State == st
		}
	}
	// CODEX_HOME has no sessions folder yet: Codex's first turn makes it.
	os.MkdirAll(dayDir(home, day1), 0o700)
	f1 := filepath.Join(dayDir(home, day1), "rollout-2026-12-01T23-59-00-"+id1+".jsonl")
	metaP := `{"timestamp":"2026-12-01T23:59:00.000Z","type":"session_meta","payload":{"id":"` + id1 + `","cwd":"/p"}}`
	appendTo(t, f1, metaP+"\n"+started+"\n")
	wait("the first session working", func(obs []source.Observation) bool {
		o, ok := find(obs, id1)
		return ok && o.Log != nil && o.Log.State == session.Working && o.Terminal != nil && !o.Terminal.Gone && o.Terminal.Tty == "/dev/pts/9"
	})
	appendTo(t, f1, completed[:50])
	appendTo(t, f1, completed[50:]+"\n")
	wait("the first session done", state(id1, session.Done))

	// Midnight: the next day's folder appears with a new session in it.
	c.set(day1.Add(2 * time.Minute))
	os.MkdirAll(dayDir(home, c.now()), 0o700)
	f2 := filepath.Join(dayDir(home, c.now()), "rollout-2026-12-02T00-01-00-"+id2+".jsonl")
	appendTo(t, f2, started+"\n")
	// Written now on the test's clock (a rollout not written for long is
	// abandoned).
	os.Chtimes(f2, c.now(), c.now())
	wait("the session of the new day", state(id2, session.Working))

	tuiMu.Lock()
	tuiAlive = false
	tuiMu.Unlock()
	wait("the TUI gone", func(obs []source.Observation) bool {
		o, ok := find(obs, id2)
		return ok && o.Terminal != nil && o.Terminal.Gone
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Scan: the daemon (daemon.pid) runs every session; the TUI shows the
// session of its directory; without a daemon (--no-daemon) the TUI runs
// its session itself.
func TestScanProcesses(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	id := sessionID(now.Add(-time.Minute), 7)
	os.MkdirAll(dayDir(home, now), 0o700)
	appendTo(t, filepath.Join(dayDir(home, now), "rollout-x-"+id+".jsonl"), started+"\n")
	daemon := procscan.Proc{Pid: 500, Name: "codex", Args: []string{"codex", "app-server", "--managed-daemon"}, StartMs: now.Add(-time.Hour).UnixMilli()}
	tuiP := procscan.Proc{Pid: 501, Name: "codex", Args: []string{"codex"}, Tty: "/dev/ttys004", Cwd: "/p", StartMs: now.Add(-2 * time.Minute).UnixMilli()}
	src := &Source{
		Home: home,
		Procs: func(context.Context) ([]procscan.Proc, error) {
			return []procscan.Proc{daemon, tuiP}, nil
		},
		Hooked: func() []Hooked { return []Hooked{{ID: id, Cwd: "/p"}} },
		Environ: func(pid int, _ []string) (map[string]string, error) {
			return map[string]string{"TMUX": "/tmp/tmux-501/default,99,0", "TMUX_PANE": "%4", "TERM_PROGRAM": "tmux"}, nil
		},
	}
	obs, err := src.Scan(context.Background())
	if err != nil || len(obs) != 1 {
		t.Fatalf("%v %+v", err, obs)
	}
	o := obs[0]
	if o.Process.Pid != 501 || o.Terminal.Pid != 501 || o.Terminal.Tmux == nil || o.Terminal.Tmux.Pane != "%4" || o.Agent != session.AgentCodex {
		t.Fatalf("no daemon.pid: %+v %+v", o.Process, o.Terminal)
	}
	os.MkdirAll(filepath.Join(home, "app-server-daemon"), 0o700)
	os.WriteFile(filepath.Join(home, "app-server-daemon", "daemon.pid"), []byte(`{"pid":500,"processStartTime":"x"}`), 0o600)
	obs, _ = src.Scan(context.Background())
	if o := obs[0]; o.Process.Pid != 500 || o.Terminal.Pid != 501 {
		t.Fatalf("with the daemon: %+v %+v", o.Process, o.Terminal)
	}
	// The process table cannot be read: nothing is said of the TUI.
	src.Procs = func(context.Context) ([]procscan.Proc, error) { return nil, fmt.Errorf("no /proc") }
	obs, err = src.Scan(context.Background())
	if err == nil || len(obs) != 1 || obs[0].Terminal != nil {
		t.Fatalf("unreadable table: %v %+v", err, obs)
	}
}

// A rollout left mid-turn (Codex killed, the machine rebooted) says
// working for ever: with nothing that could run it and no write for
// abandonedAfter, it is exited. 255 of them were listed as working.
func TestAbandonedRolloutIsNotWorking(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	os.MkdirAll(dayDir(home, now), 0o700)
	old, fresh := sessionID(now.Add(-time.Hour), 1), sessionID(now.Add(-time.Minute), 2)
	oldPath := filepath.Join(dayDir(home, now), "rollout-x-"+old+".jsonl")
	appendTo(t, oldPath, started+"\n")
	appendTo(t, filepath.Join(dayDir(home, now), "rollout-y-"+fresh+".jsonl"), started+"\n")
	lastWrite := now.Add(-abandonedAfter - time.Minute)
	if err := os.Chtimes(oldPath, lastWrite, lastWrite); err != nil {
		t.Fatal(err)
	}
	var procs []procscan.Proc
	src := &Source{
		Home:    home,
		Procs:   func(context.Context) ([]procscan.Proc, error) { return procs, nil },
		Environ: func(int, []string) (map[string]string, error) { return nil, nil },
	}
	obs, err := src.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := find(obs, old); o.Log == nil || o.Log.State != session.Exited || o.Log.Since.Sub(lastWrite).Abs() > time.Second {
		t.Errorf("the abandoned rollout: %+v, want exited since its last write", o.Log)
	}
	if o, _ := find(obs, fresh); o.Log == nil || o.Log.State != session.Working {
		t.Errorf("a rollout written a minute ago: %+v, want working", o.Log)
	}
	// A codex with no terminal (codex exec from a script) may be running
	// it: it is not called exited.
	procs = []procscan.Proc{{Pid: 77, Name: "codex", Args: []string{"codex", "exec", "fix it"}, Cwd: "/p", StartMs: now.Add(-2 * time.Hour).UnixMilli()}}
	obs, _ = src.Scan(context.Background())
	if o, _ := find(obs, old); o.Log == nil || o.Log.State != session.Working {
		t.Errorf("with a headless codex running: %+v, want working", o.Log)
	}
	// Nor is a codex mcp-server (it runs no session).
	procs = []procscan.Proc{{Pid: 78, Name: "codex", Args: []string{"codex", "mcp-server"}, StartMs: now.Add(-2 * time.Hour).UnixMilli()}}
	obs, _ = src.Scan(context.Background())
	if o, _ := find(obs, old); o.Log == nil || o.Log.State != session.Exited {
		t.Errorf("with only codex mcp-server running: %+v, want exited", o.Log)
	}
}

// A day folder that Codex makes between the walk looking for it and the
// watch on its parent (mkdir -p, then the rollout at once) sends nobody an
// event: the walk is redone, so the folder itself is watched, not left to
// the 60 s safety pass (2 of 23 fresh starts of Codex 0.171.0 were).
func TestWatchDaysCatchesAFolderMadeMeanwhile(t *testing.T) {
	home := t.TempDir()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	src := &Source{Home: home, Now: func() time.Time { return now }, Days: 1}
	day := dayDir(home, now)
	var added []string
	add := func(p string) error {
		if p != day && len(added) == 0 {
			// Codex makes the whole day folder right after the walk
			// found only this ancestor, before this watch starts.
			if err := os.MkdirAll(day, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		added = append(added, p)
		return nil
	}
	watched := map[string]bool{}
	if !src.watchDays(add, watched) {
		t.Fatal("no watch added")
	}
	if !watched[day] {
		t.Fatalf("watched %v: not the day folder made meanwhile", added)
	}
	if src.watchDays(add, watched) {
		t.Fatalf("a second walk added watches again: %v", added)
	}
}

// A one-shot Scan after the TUI quit still names the TUI that showed the
// session (its pid, start and pane), from the memory an earlier Scan left:
// the pane's last screen joins the session at the exit.
func TestScanRemembersTheTUI(t *testing.T) {
	home, mem := t.TempDir(), filepath.Join(t.TempDir(), "screens", "codex-ui.json")
	now := time.Now()
	id := sessionID(now.Add(-time.Minute), 8)
	os.MkdirAll(dayDir(home, now), 0o700)
	appendTo(t, filepath.Join(dayDir(home, now), "rollout-x-"+id+".jsonl"), started+"\n")
	tuiP := procscan.Proc{Pid: 601, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/4", Cwd: "/p", StartMs: now.Add(-2 * time.Minute).UnixMilli()}
	running := true
	oneShot := func() source.Observation {
		t.Helper()
		src := &Source{ // a new `mew status` each time
			Home: home, Memory: mem,
			Procs: func(context.Context) ([]procscan.Proc, error) {
				if running {
					return []procscan.Proc{tuiP}, nil
				}
				return nil, nil
			},
			Hooked: func() []Hooked { return []Hooked{{ID: id, Cwd: "/p"}} },
			Environ: func(int, []string) (map[string]string, error) {
				return map[string]string{"TMUX": "/tmp/tmux-501/default,99,0", "TMUX_PANE": "%4"}, nil
			},
		}
		obs, err := src.Scan(context.Background())
		if err != nil || len(obs) != 1 || obs[0].Terminal == nil {
			t.Fatalf("%v %+v", err, obs)
		}
		return obs[0]
	}
	if o := oneShot(); o.Terminal.Gone || o.Terminal.Pid != 601 {
		t.Fatalf("running: %+v", o.Terminal)
	}
	running = false
	o := oneShot()
	if !o.Terminal.Gone || o.Terminal.Pid != 601 || o.Terminal.StartMs != tuiP.StartMs || o.Terminal.Tmux == nil || o.Terminal.Tmux.Pane != "%4" {
		t.Fatalf("after the TUI quit, a new Scan: %+v", o.Terminal)
	}
	// A memory file that is not Mew's is ignored.
	os.WriteFile(mem, []byte(`{"`+id+`": "not a process"}`), 0o600)
	if o := oneShot(); !o.Terminal.Gone || o.Terminal.Pid != 0 {
		t.Fatalf("a bad memory file: %+v", o.Terminal)
	}
}

// Right after a session's TUI goes, the process table is read every
// rejoinPoll (the person may resume the session at once), for
// rejoinWindow; then at the usual pace.
func TestRejoinPollAfterTheTUIWent(t *testing.T) {
	home := t.TempDir()
	c := &clock{t: time.Now()}
	id := sessionID(c.now().Add(-time.Minute), 9)
	os.MkdirAll(dayDir(home, c.now()), 0o700)
	appendTo(t, filepath.Join(dayDir(home, c.now()), "rollout-x-"+id+".jsonl"), started+"\n")
	running := true
	src := &Source{
		Home: home, Now: c.now,
		Procs: func(context.Context) ([]procscan.Proc, error) {
			if running {
				return []procscan.Proc{{Pid: 701, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/5", Cwd: "/p", StartMs: c.now().Add(-2 * time.Minute).UnixMilli()}}, nil
			}
			return nil, nil
		},
		Hooked:  func() []Hooked { return []Hooked{{ID: id, Cwd: "/p"}} },
		Environ: func(int, []string) (map[string]string, error) { return nil, nil },
	}
	src.Scan(context.Background())
	if src.justGone() {
		t.Fatal("fast polls while the TUI runs")
	}
	running = false
	src.Scan(context.Background())
	if !src.justGone() {
		t.Fatal("no fast polls right after the TUI went")
	}
	c.set(c.now().Add(rejoinWindow + time.Second))
	if src.justGone() {
		t.Fatal("fast polls past rejoinWindow")
	}
}

// Codex's auto-review writes a rollout of its own for every review (its
// session_meta as Codex 0.169.0 writes it, cut down): it runs inside its
// parent's turn and is no session to list (it was a second row, done).
func TestAutoReviewRolloutIsNoSession(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	parent, review := sessionID(now.Add(-time.Minute), 1), sessionID(now.Add(-time.Minute+time.Second), 2)
	dir := dayDir(home, now)
	os.MkdirAll(dir, 0o700)
	appendTo(t, filepath.Join(dir, "rollout-x-"+parent+".jsonl"),
		`{"timestamp":"2026-12-02T05:01:42.956Z","type":"session_meta","payload":{"session_id":"`+parent+`","id":"`+parent+`","cwd":"/p","originator":"codex-tui","source":"vscode","thread_source":"user"}}`+"\n"+started+"\n")
	appendTo(t, filepath.Join(dir, "rollout-y-"+review+".jsonl"),
		`{"timestamp":"2026-12-02T05:01:43.020Z","type":"session_meta","payload":{"session_id":"`+parent+`","id":"`+review+`","parent_thread_id":"`+parent+`","cwd":"/p","originator":"codex-tui","source":{"subagent":{"other":"guardian"}},"thread_source":"guardian_review"}}`+"\n"+started+"\n"+completed+"\n")
	src := &Source{Home: home, Procs: func(context.Context) ([]procscan.Proc, error) { return nil, nil }}
	obs, err := src.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := find(obs, review); ok || len(obs) != 1 {
		t.Fatalf("the reviewer's rollout is listed: %+v", obs)
	}
	if o, ok := find(obs, parent); !ok || o.Log == nil || o.Log.State != session.Working {
		t.Fatalf("the parent: %+v", obs)
	}
}

// Watch lists the store (Hooked: a stat per session of every agent) again
// only once the store changed, not every poll; a change is taken in at
// the next refresh.
func TestWatchListsTheStoreOnlyWhenItChanged(t *testing.T) {
	store := t.TempDir()
	var mu sync.Mutex
	calls := 0
	s := &Source{
		Home: t.TempDir(), Poll: 20 * time.Millisecond, StoreDir: store,
		Procs: func(context.Context) ([]procscan.Proc, error) { return nil, nil },
		Hooked: func() []Hooked {
			mu.Lock()
			defer mu.Unlock()
			calls++
			return nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 8)
	go s.Watch(ctx, out)
	<-out
	time.Sleep(10 * s.Poll)
	mu.Lock()
	if calls != 1 {
		t.Errorf("Hooked called %d times over a quiet store, want once", calls)
	}
	mu.Unlock()
	if err := os.WriteFile(filepath.Join(store, "s.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(s.Poll) {
		mu.Lock()
		n := calls
		mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a changed store was never listed again")
		}
	}
}

// A newcomer's first Codex after `mew install` starts on "Hooks need
// review" and has no session (no rollout) until it is answered: with the
// hooks awaiting review, a TUI that shows no session is observed on that
// dialog (issue 40, item 6). Once trusted, nothing is said of it.
func TestScanTUIOnHooksReview(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	tuiP := procscan.Proc{Pid: 601, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/5", Cwd: "/p", StartMs: now.Add(-time.Minute).UnixMilli()}
	resume := procscan.Proc{Pid: 602, Name: "codex", Args: []string{"codex", "resume", "--last"}, Tty: "/dev/pts/6", Cwd: "/p", StartMs: now.UnixMilli()}
	other := procscan.Proc{Pid: 603, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/7", Cwd: "/p", StartMs: now.UnixMilli()}
	exiting := procscan.Proc{Pid: 604, Name: "codex", Args: []string{"codex"}, Tty: "/dev/pts/8", Cwd: "/q", StartMs: now.UnixMilli()}
	review, asked := true, 0
	src := &Source{
		Home: home,
		Procs: func(context.Context) ([]procscan.Proc, error) {
			return []procscan.Proc{tuiP, resume, other, exiting}, nil
		},
		Environ: func(pid int, _ []string) (map[string]string, error) {
			switch pid {
			case 603: // another CODEX_HOME: its own trust
				return map[string]string{"CODEX_HOME": "/elsewhere"}, nil
			case 604: // exiting: Linux has emptied its environment
				return map[string]string{}, nil
			}
			return map[string]string{"TERM_PROGRAM": "ghostty", "CODEX_HOME": home}, nil
		},
		Now: func() time.Time { return now },
		HooksReview: func() bool {
			asked++
			return review
		},
	}
	obs, err := src.Scan(context.Background())
	if err != nil || len(obs) != 1 {
		t.Fatalf("%v %+v", err, obs)
	}
	o := obs[0]
	if o.ID != "" || o.Fallback != "proc:601" || o.Process.Pid != 601 || o.Terminal == nil || !o.Terminal.HooksReview ||
		o.Terminal.Env["TERM_PROGRAM"] != "ghostty" || o.Agent != session.AgentCodex {
		t.Fatalf("observation %+v terminal %+v", o, o.Terminal)
	}
	// Asked at most every poll: it reads two files.
	src.Scan(context.Background())
	if asked != 1 {
		t.Errorf("HooksReview asked %d times within a poll", asked)
	}
	// A FIFO where the thread locks go holds nothing up.
	locks := filepath.Join(home, "thread-writer-locks")
	if err := syscall.Mkfifo(locks, 0o600); err != nil {
		t.Fatal(err)
	}
	if obs, _ = src.Scan(context.Background()); len(obs) != 1 {
		t.Fatalf("with a FIFO: %+v", obs)
	}
	os.Remove(locks)
	// A session made since the TUI started: the dialog was answered
	// ("Continue without trusting" leaves the hooks untrusted, and no
	// rollout comes before a turn).
	os.MkdirAll(locks, 0o700)
	os.WriteFile(filepath.Join(locks, sessionID(now, 9)+".lock"), nil, 0o600)
	if obs, _ = src.Scan(context.Background()); len(obs) != 0 {
		t.Fatalf("past the dialog: %+v", obs)
	}
	os.RemoveAll(locks)
	review, now = false, now.Add(defaultPoll)
	if obs, _ = src.Scan(context.Background()); len(obs) != 0 {
		t.Fatalf("trusted hooks: %+v", obs)
	}
}
