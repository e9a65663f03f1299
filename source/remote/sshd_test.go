package remote_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/sshtest"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// The hub against a real sshd on 127.0.0.1 and the real mew on the
// "remote" side: sessions driven by mew-hook there show up with their host;
// sshd killed → offline, sessions kept; back when it returns; twenty
// dropped connections lose and double nothing.
func TestRealSSH(t *testing.T) {
	w := sshtest.NewWorld(t)
	ssh, err := remote.FindSSH()
	if err != nil {
		t.Skip(err)
	}
	var dials atomic.Int32
	dial := remote.DialSSH(ssh)
	r := remote.Remote{Name: "box", Host: w.SSH.Host(), SSHOptions: w.SSH.SSHOptions()}
	hub := remote.New(remote.Options{
		Remotes:  []remote.Remote{r},
		CacheDir: t.TempDir(),
		Dial: func(ctx context.Context, r remote.Remote) (remote.Conn, error) {
			dials.Add(1)
			return dial(ctx, r)
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { hub.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()

	wait := func(what string, limit time.Duration, ok func([]session.Shown, remote.HostStatus) bool) time.Duration {
		t.Helper()
		start := time.Now()
		deadline := time.After(limit)
		for {
			s, h := hub.Sessions(), hub.Hosts()[0]
			if ok(s, h) {
				return time.Since(start)
			}
			select {
			case <-hub.Changes():
			case <-time.After(10 * time.Millisecond):
			case <-deadline:
				t.Fatalf("not within %v: %s; sessions %+v; host %+v", limit, what, s, h)
			}
		}
	}
	state := func(s []session.Shown, id string) (session.Shown, bool) {
		for _, x := range s {
			if x.ID == id {
				return x, true
			}
		}
		return session.Shown{}, false
	}
	is := func(id string, st session.State, reason session.Reason) func([]session.Shown, remote.HostStatus) bool {
		return func(s []session.Shown, h remote.HostStatus) bool {
			x, ok := state(s, id)
			return ok && h.Link == remote.Online && x.State == st && x.Reason == reason && x.Host == "box" && !x.Offline
		}
	}

	began := time.Now()
	defer func() { t.Logf("took %v", time.Since(began).Round(time.Millisecond)) }()
	wait("online with no sessions", 20*time.Second, func(s []session.Shown, h remote.HostStatus) bool { return h.Link == remote.Online })
	a1 := w.Agent(t, "rem-1", "/srv/api")
	a2 := w.Agent(t, "rem-2", "/srv/web")
	a1.Hook(t, "SessionStart", map[string]any{"source": "startup"})
	a2.Hook(t, "SessionStart", map[string]any{"source": "startup"})
	a2.Hook(t, "UserPromptSubmit", map[string]any{"prompt": "build the site"})
	a1.Hook(t, "UserPromptSubmit", map[string]any{"prompt": "fix the api"})
	a1.Hook(t, "PreToolUse", sshtest.Bash("t0", "make deploy"))
	a1.Hook(t, "PermissionRequest", sshtest.Bash("t0", "make deploy"))
	d := wait("rem-1 waiting on box", 5*time.Second, is("rem-1", session.Waiting, session.ReasonPermission))
	t.Logf("a wait on the remote reached the hub in %v", d.Round(time.Millisecond))
	wait("rem-2 working on box", time.Second, is("rem-2", session.Working, ""))

	// The machine goes away: offline within 5 s, sessions kept as they
	// were (never exited), greyed.
	stopAt := time.Now()
	w.SSH.Stop()
	t.Logf("sshd killed in %v", time.Since(stopAt).Round(time.Millisecond))
	d = wait("offline after sshd was killed", 5*time.Second, func(s []session.Shown, h remote.HostStatus) bool {
		x, ok := state(s, "rem-1")
		return h.Link == remote.Offline && ok && x.Offline && x.State == session.Waiting && !x.LastSeen.IsZero() && len(s) == 2
	})
	t.Logf("offline %v after sshd was killed (%s)", d.Round(time.Millisecond), hub.Hosts()[0].Why)
	a1.Hook(t, "PostToolUse", sshtest.Bash("t0", "make deploy")) // changes while offline show once it is back
	if err := w.SSH.Restart(); err != nil {
		t.Fatal(err)
	}
	d = wait("back online after sshd returned", 30*time.Second, is("rem-1", session.Working, ""))
	t.Logf("back %v after sshd returned", d.Round(time.Millisecond))

	// Twenty dropped connections, a change before each: every list the hub
	// hands out in the meantime has both sessions, once each.
	var bad []string
	var mu sync.Mutex
	sampling, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-sampling:
				return
			case <-time.After(5 * time.Millisecond):
			}
			var ids []string
			for _, s := range hub.Sessions() {
				ids = append(ids, s.ID)
			}
			sort.Strings(ids)
			if fmt.Sprint(ids) != "[rem-1 rem-2]" {
				mu.Lock()
				bad = append(bad, fmt.Sprint(ids))
				mu.Unlock()
			}
		}
	}()
	var total time.Duration
	for i := range 20 {
		tool := fmt.Sprintf("t%d", i+1)
		before := dials.Load()
		a1.Hook(t, "PreToolUse", sshtest.Bash(tool, "make test"))
		a1.Hook(t, "PermissionRequest", sshtest.Bash(tool, "make test"))
		if w.SSH.DropConnections() == 0 {
			t.Fatalf("reconnect %d: no connection to drop", i)
		}
		total += wait(fmt.Sprintf("reconnect %d", i), 30*time.Second, func(s []session.Shown, h remote.HostStatus) bool {
			return dials.Load() > before && is("rem-1", session.Waiting, session.ReasonPermission)(s, h)
		})
		a1.Hook(t, "PostToolUse", sshtest.Bash(tool, "make test"))
		wait(fmt.Sprintf("after reconnect %d", i), 5*time.Second, is("rem-1", session.Working, ""))
	}
	close(sampling)
	<-sampled
	t.Logf("20 reconnects, %v each on average (backoff included)", (total / 20).Round(time.Millisecond))
	if len(bad) > 0 {
		t.Errorf("%d lists lost or doubled a session during the reconnects, e.g. %v", len(bad), bad[0])
	}
}
