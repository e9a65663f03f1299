package monitor_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// fakeRemote stands in for remote.Hub.
type fakeRemote struct {
	mu      sync.Mutex
	list    []session.Shown
	changes chan struct{}
}

func (f *fakeRemote) Sessions() []session.Shown {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]session.Shown(nil), f.list...)
}

func (f *fakeRemote) Changes() <-chan struct{} { return f.changes }

func (f *fakeRemote) set(list ...session.Shown) {
	f.mu.Lock()
	f.list = list
	f.mu.Unlock()
	f.changes <- struct{}{}
}

func remoteSession(id string, st session.State) session.Shown {
	return session.Shown{ID: id, State: st, Host: "box", Since: time.Now().Add(-time.Minute)}
}

// The other machines' sessions are listed with this machine's, in the
// same order, each id once; a change there is an update at once.
func TestRemoteSessionsMerged(t *testing.T) {
	e := newEnv(t)
	e.writeDoc(t, e.self.Pid, "local-1", "busy", time.Now())
	r := &fakeRemote{changes: make(chan struct{}, 1), list: []session.Shown{remoteSession("remote-1", session.Done), remoteSession("local-1", session.Waiting)}}
	e.opts.Remote = r
	shown, errs := monitor.Snapshot(e.opts)
	if len(shown) != 2 || shown[0].ID != "remote-1" || shown[1].ID != "local-1" || shown[1].Host != "" {
		t.Fatalf("snapshot %+v", shown)
	}
	if len(errs) != 1 {
		t.Errorf("the repeated id must be reported: %v", errs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	<-updates
	r.set(remoteSession("remote-1", session.Waiting), remoteSession("remote-2", session.Working))
	select {
	case u := <-updates:
		if len(u.Sessions) != 3 || u.Sessions[0].ID != "remote-1" || u.Sessions[0].State != session.Waiting {
			t.Fatalf("after the remote changed: %+v", u.Sessions)
		}
	case <-time.After(5 * time.Second): // well before the 1 s tick would matter twice
		t.Fatal("no update after the remote changed")
	}
}
