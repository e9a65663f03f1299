package monitor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

type env struct {
	opts   monitor.Options
	regDir string
	self   proctree.Proc
}

func newEnv(t *testing.T) *env {
	t.Helper()
	self, err := proctree.Lean{}.Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(reg, 0o700)
	return &env{self: self, regDir: reg, opts: monitor.Options{
		Store: store.Store{Home: t.TempDir(), Fold: hookbin.Fold}, Sources: []monitor.Source{registry.New(reg)}, Procs: proctree.Lean{},
		TicksToMs: proctree.TicksToUnixMs, Now: time.Now, LockTimeout: time.Second,
	}}
}

// writeDoc writes a registry document for a session run by this process.
func (e *env) writeDoc(t *testing.T, pid int, id, status string, at time.Time) {
	t.Helper()
	doc := map[string]any{"pid": pid, "sessionId": id, "cwd": "/p/" + id, "status": status,
		"statusUpdatedAt": at.UnixMilli(), "startedAt": time.UnixMilli(e.self.StartMs).Add(time.Second).UnixMilli()}
	if pid == e.self.Pid {
		doc["procStart"] = strconv.FormatUint(e.self.StartTicks, 10)
	}
	data, _ := json.Marshal(doc)
	if err := store.WriteFileAtomic(filepath.Join(e.regDir, fmt.Sprintf("%d.json", pid)), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (e *env) snapshot(t *testing.T) map[string]session.Shown {
	t.Helper()
	shown, errs := monitor.Snapshot(e.opts)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	m := map[string]session.Shown{}
	for _, s := range shown {
		m[s.ID] = s
	}
	return m
}

func TestRegistryOnlySessionsAreListedAndForgotten(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.writeDoc(t, e.self.Pid, "live-1", "waiting", now)
	e.writeDoc(t, 1<<29, "dead-1", "busy", now) // no such process
	got := e.snapshot(t)
	if s := got["live-1"]; s.State != session.Waiting || s.Reason != session.ReasonInput || s.Cwd != "/p/live-1" || !s.Registry || s.HooksSeen {
		t.Fatalf("live: %+v", s)
	}
	if s := got["dead-1"]; s.State != session.Exited || s.Source != "process:gone" {
		t.Fatalf("dead: %+v", s)
	}
	// The registry file goes away when Claude Code exits.
	os.Remove(filepath.Join(e.regDir, strconv.Itoa(e.self.Pid)+".json"))
	if s := e.snapshot(t)["live-1"]; s.State != session.Exited || s.Source != "registry:gone" {
		t.Fatalf("after the file vanished: %+v", s)
	}
	// Exited sessions are forgotten after ForgetAfter, files and all.
	e.opts.ForgetAfter = time.Minute
	e.opts.Now = func() time.Time { return now.Add(2 * time.Minute) }
	got = e.snapshot(t)
	if _, ok := got["dead-1"]; ok {
		t.Fatalf("dead session not forgotten: %+v", got)
	}
	if _, err := e.opts.Store.Load("dead-1"); !os.IsNotExist(err) {
		t.Fatalf("store still has it: %v", err)
	}
}

func TestRegistryTurnIsRemembered(t *testing.T) {
	// Two separate one-shot snapshots (two `mew status` runs) still tell a
	// finished turn (done) from a fresh session (idle).
	e := newEnv(t)
	t0 := time.Now()
	e.writeDoc(t, e.self.Pid, "r1", "idle", t0)
	if s := e.snapshot(t)["r1"]; s.State != session.Idle {
		t.Fatalf("fresh: %+v", s)
	}
	e.writeDoc(t, e.self.Pid, "r1", "busy", t0.Add(time.Second))
	if s := e.snapshot(t)["r1"]; s.State != session.Working {
		t.Fatalf("busy: %+v", s)
	}
	e.writeDoc(t, e.self.Pid, "r1", "idle", t0.Add(2*time.Second))
	if s := e.snapshot(t)["r1"]; s.State != session.Done {
		t.Fatalf("after the turn: %+v", s)
	}
}

func TestCorruptFilesAreReportedAndLeftAlone(t *testing.T) {
	e := newEnv(t)
	e.opts.Store.EnsureDir()
	bad := filepath.Join(e.opts.Store.Dir(), "broken.json")
	os.WriteFile(bad, []byte("{{{"), 0o600)
	os.WriteFile(filepath.Join(e.regDir, "77.json"), []byte("garbage"), 0o600)
	shown, errs := monitor.Snapshot(e.opts)
	if len(shown) != 0 || len(errs) != 2 {
		t.Fatalf("shown %v errs %v", shown, errs)
	}
	if data, _ := os.ReadFile(bad); string(data) != "{{{" {
		t.Fatal("a corrupt file was changed")
	}
}

func TestSortPutsNeedsYouFirst(t *testing.T) {
	base := time.Now()
	s := []session.Shown{
		{ID: "w2", State: session.Working, Since: base},
		{ID: "d1", State: session.Done, Since: base.Add(time.Second)},
		{ID: "q2", State: session.Waiting, Since: base.Add(2 * time.Second)},
		{ID: "q1", State: session.Waiting, Since: base},
		{ID: "x", State: session.Exited, Since: base},
		{ID: "f", State: session.Failed, Since: base},
	}
	monitor.Sort(s)
	var ids []string
	for _, x := range s {
		ids = append(ids, x.ID)
	}
	if fmt.Sprint(ids) != "[q1 q2 f d1 w2 x]" {
		t.Fatalf("order %v", ids)
	}
}

func TestWatchSeesChanges(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	first := <-updates
	if len(first.Sessions) != 0 {
		t.Fatalf("first: %+v", first)
	}
	e.writeDoc(t, e.self.Pid, "w1", "busy", time.Now())
	waitFor(t, updates, func(u monitor.Update) bool {
		return len(u.Sessions) == 1 && u.Sessions[0].State == session.Working
	})
	e.writeDoc(t, e.self.Pid, "w1", "waiting", time.Now())
	waitFor(t, updates, func(u monitor.Update) bool {
		return len(u.Sessions) == 1 && u.Sessions[0].State == session.Waiting
	})
	cancel()
	for range updates {
	}
}

func TestWatchFindsADirectoryCreatedLater(t *testing.T) {
	e := newEnv(t)
	e.regDir = filepath.Join(t.TempDir(), "later", "sessions")
	// "later" (the agent's folder) is missing too: its rescan finds it.
	e.opts.Sources = []monitor.Source{&registry.Source{Dir: e.regDir, Rescan: 20 * time.Millisecond}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	<-updates
	os.MkdirAll(e.regDir, 0o700)
	e.writeDoc(t, e.self.Pid, "late", "busy", time.Now())
	waitFor(t, updates, func(u monitor.Update) bool { return len(u.Sessions) == 1 })
}

func waitFor(t *testing.T, updates <-chan monitor.Update, ok func(monitor.Update) bool) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case u, open := <-updates:
			if !open {
				t.Fatal("watch ended")
			}
			if ok(u) {
				return
			}
		case <-timeout:
			t.Fatal("no matching update")
		}
	}
}
