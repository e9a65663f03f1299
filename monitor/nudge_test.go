package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// nudgeSource is a screen source that counts the nudges it gets.
type nudgeSource struct {
	fakeSource
	nudges chan struct{}
}

func (n nudgeSource) Name() string { return "screen" }
func (n nudgeSource) Nudge() {
	select {
	case n.nudges <- struct{}{}:
	default:
	}
}

// A report (a hook's write to the store, an agent's log line) has the
// screen sources read at once (issue 22: with the pane read, a wait ended
// only at the next 700 ms sweep although hooks and registry said working);
// a screen's own report does not.
func TestWatchNudgesScreenSourcesOnReports(t *testing.T) {
	scr := nudgeSource{fakeSource: fakeSource{sets: make(chan []Observation)}, nudges: make(chan struct{}, 1)}
	logSrc := fakeSource{sets: make(chan []Observation)}
	st := store.Store{Home: t.TempDir(), Fold: hookbin.Fold}
	if err := st.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	o := Options{Store: st, Sources: []Source{scr, namedSource{logSrc, "log"}}, Now: time.Now, LockTimeout: time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := Watch(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range updates {
		}
	}()
	scr.sets <- nil
	logSrc.sets <- nil
	// The first reports are no news.
	select {
	case <-scr.nudges:
		t.Fatal("nudged before any report")
	case <-time.After(50 * time.Millisecond):
	}

	write := func(state session.State) {
		_, err := st.Update("s1", time.Second, func(rec *session.Record, _ bool) bool {
			now := time.Now()
			rec.Hook = &session.HookState{State: state, Since: now, At: now, Source: "hook:Stop"}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	nudged := func(what string) {
		t.Helper()
		select {
		case <-scr.nudges:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the screen source was not nudged", what)
		}
	}
	write(session.Done)
	nudged("a hook's report")
	logSrc.sets <- []Observation{{ID: "s2", Log: &session.LogState{State: session.Done, At: time.Now()}}}
	nudged("a log's report")
	scr.sets <- []Observation{screenObs("tmux:%3", "%3", "/dev/pts/3", 0)}
	select {
	case <-scr.nudges:
		t.Fatal("a screen's own report nudged the screen")
	case <-time.After(100 * time.Millisecond):
	}
}

type namedSource struct {
	fakeSource
	name string
}

func (n namedSource) Name() string { return n.name }
