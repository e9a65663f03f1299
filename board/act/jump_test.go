package act

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
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

// newJumper jumps among recs with a planner that gives one step naming the
// record's tty and tmux pane (what jump.PlanFor would target).
func newJumper(recs ...session.Record) (*Jumper, *recordingExec) {
	ex := &recordingExec{}
	s := &Sessions{}
	s.Set(recs)
	j := &Jumper{
		Runner:   &jump.Runner{Exec: ex},
		Sessions: s,
		Plan: func(ctx context.Context, rec session.Record) jump.Plan {
			tty, pane := "", ""
			if rec.Process != nil {
				tty = rec.Process.Tty
				if rec.Process.Tmux != nil {
					pane = rec.Process.Tmux.Pane
				}
			}
			return jump.Plan{SessionID: rec.ID, Mechanism: "test", Precision: jump.Tab, Outer: []jump.Step{
				{Name: "focus", Argv: []string{"/usr/bin/true", tty, pane}, Gives: jump.Tab},
			}}
		},
	}
	return j, ex
}

func submitAndWait(t *testing.T, j *Jumper, id string) jump.Result {
	t.Helper()
	done := make(chan jump.Result, 1)
	j.Submit(id, func(r jump.Result) { done <- r })
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatal("no jump result")
	}
	return jump.Result{}
}

func TestJumperPlansOffTheCaller(t *testing.T) {
	j, ex := newJumper(session.Record{ID: "s1", Process: &session.Process{Pid: 42, Tty: "/dev/ttys003"}})
	r := submitAndWait(t, j, "s1")
	if r.Precision != jump.Tab || r.Dropped {
		t.Fatalf("result %+v", r)
	}
	if len(ex.steps) != 1 || ex.steps[0][1] != "/dev/ttys003" {
		t.Fatalf("steps %q: the plan must come from the session's record", ex.steps)
	}
}

// A session seen only on a screen (no hook, so no store file) is jumped to
// from the merged records, by the panel's and the terminal board's path
// alike (issue 22: "cannot read the session: open …/sessions/tmux:%0.json").
func TestJumperReachesAScreenOnlySession(t *testing.T) {
	rec := session.Record{ID: "tmux:%0", Process: &session.Process{Pid: 7, Tty: "/dev/pts/3",
		Tmux: &session.Tmux{Socket: "/tmp/tmux-1000/default", Pane: "%0"}},
		Screen: &session.ScreenState{Via: "tmux", Pane: "%0", Agent: "codex"}}
	j, ex := newJumper(rec)
	where, err := j.Jump("tmux:%0")
	if err != nil || where == "" {
		t.Fatalf("Jump: %q %v", where, err)
	}
	if len(ex.steps) != 1 || ex.steps[0][2] != "%0" {
		t.Fatalf("steps %q: the plan must target the pane of the screen's record", ex.steps)
	}
	// An exact id: tmux:%0 is a prefix of tmux:%01, never a match of it.
	j, ex = newJumper(session.Record{ID: "tmux:%01"})
	if _, err := j.Jump("tmux:%0"); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("a prefix of another pane's id: %v", err)
	}
	if len(ex.steps) != 0 {
		t.Fatalf("nothing may run: %q", ex.steps)
	}
}

func TestJumperUnknownAndBadIDs(t *testing.T) {
	j, ex := newJumper()
	r := submitAndWait(t, j, "missing")
	if r.Precision != jump.None || !strings.Contains(r.Message, "the session missing is gone") {
		t.Fatalf("missing session: %+v", r)
	}
	r = submitAndWait(t, j, "../../etc/passwd")
	if r.Precision != jump.None || !strings.Contains(r.Message, "not a session id") {
		t.Fatalf("hostile id: %+v", r)
	}
	if _, err := j.Jump("../../etc/passwd"); err == nil || !strings.Contains(err.Error(), "not a session id") {
		t.Fatalf("hostile id, waited for: %v", err)
	}
	if len(ex.steps) != 0 {
		t.Fatalf("nothing may run for these: %q", ex.steps)
	}
}

// A session this machine has no record of goes to the remote planner.
func TestJumperRemoteSession(t *testing.T) {
	hub := followedHub(t, session.Shown{ID: "far-1"})
	j, ex := newJumper()
	j.Sessions.Remotes = func() *remote.Hub { return hub }
	j.System = func() jump.RemoteSystem {
		return jump.RemoteSystem{ListSSH: func(context.Context) ([]jump.SSHProc, error) { return nil, errors.New("no ps here") }}
	}
	r := submitAndWait(t, j, "far-1")
	if r.Precision != jump.None || !strings.Contains(r.Message, "cannot list the ssh processes: no ps here") {
		t.Fatalf("remote jump: %+v", r)
	}
	if len(ex.steps) != 0 {
		t.Fatalf("the local planner ran for a remote session: %q", ex.steps)
	}
}
