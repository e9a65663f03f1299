package app

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

type recordingExec struct {
	mu    sync.Mutex
	steps [][]string
}

func (r *recordingExec) Run(ctx context.Context, s jump.Step) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, s.Argv)
	return "", nil
}

func newJumper(t *testing.T) (*Jumper, *recordingExec, store.Store) {
	t.Helper()
	st := store.Store{Home: t.TempDir()}
	ex := &recordingExec{}
	j := &Jumper{
		Runner: &jump.Runner{Exec: ex},
		Store:  st,
		Plan: func(ctx context.Context, rec session.Record) jump.Plan {
			// What jump.PlanFor gives for a plain Terminal.app session,
			// reduced to one step naming the record's tty.
			tty := ""
			if rec.Process != nil {
				tty = rec.Process.Tty
			}
			return jump.Plan{SessionID: rec.ID, Mechanism: "test", Precision: jump.Tab, Outer: []jump.Step{
				{Name: "focus", Argv: []string{"/usr/bin/true", tty}, Gives: jump.Tab},
			}}
		},
	}
	return j, ex, st
}

func jumpAndWait(t *testing.T, j *Jumper, id string) jump.Result {
	t.Helper()
	done := make(chan jump.Result, 1)
	j.Jump(id, func(r jump.Result) { done <- r })
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no jump result")
	}
	return jump.Result{}
}

func TestJumperReadsRecordOffTheCaller(t *testing.T) {
	j, ex, st := newJumper(t)
	if err := st.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	_, err := st.Update("s1", time.Second, func(rec *session.Record, existed bool) bool {
		rec.Process = &session.Process{Pid: 42, Tty: "/dev/ttys003"}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	r := jumpAndWait(t, j, "s1")
	if r.Precision != jump.Tab || r.Dropped {
		t.Fatalf("result %+v", r)
	}
	if len(ex.steps) != 1 || ex.steps[0][1] != "/dev/ttys003" {
		t.Fatalf("steps %q: the plan must come from the stored record", ex.steps)
	}
	if s := JumpFeedback(r); s != "" {
		t.Errorf("a jump that worked makes no sound, got %q", s)
	}
}

func TestJumperUnknownAndBadIDs(t *testing.T) {
	j, ex, _ := newJumper(t)
	r := jumpAndWait(t, j, "missing")
	if r.Precision != jump.None || !strings.Contains(r.Message, "cannot read the session") {
		t.Fatalf("missing session: %+v", r)
	}
	r = jumpAndWait(t, j, "../../etc/passwd")
	if r.Precision != jump.None || !strings.Contains(r.Message, "not a session id") {
		t.Fatalf("hostile id: %+v", r)
	}
	if len(ex.steps) != 0 {
		t.Fatalf("nothing may run for these: %q", ex.steps)
	}
	if s := JumpFeedback(r); s != JumpFailedSound {
		t.Errorf("a failed jump sounds %q, got %q", JumpFailedSound, s)
	}
	if s := JumpFeedback(jump.Result{Precision: jump.None, Dropped: true}); s != "" {
		t.Errorf("a jump replaced by a newer click is silent, got %q", s)
	}
	if s := JumpFeedback(jump.Result{Precision: jump.App}); s != "" {
		t.Errorf("an app-only jump still brought something forward, got %q", s)
	}
}
