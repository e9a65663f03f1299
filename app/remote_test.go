package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

// Sessions on other machines are listed with their host; an offline host's
// sessions say so, and stay clickable (the jump says what it can reach).
func TestMenuRemoteSessions(t *testing.T) {
	on := shown("r1", session.Waiting, t0.Add(-12*time.Second), "/srv/api")
	on.Host = "devbox"
	off := shown("r2", session.Working, t0.Add(-time.Minute), "/srv/web")
	off.Host, off.Offline, off.LastSeen = "gpu", true, t0.Add(-2*time.Minute)
	items := BuildMenu(MenuState{Rows: rowsAt(t0, on, off)})
	if items[0].Title != "api @devbox — waiting · permission · 12s" || items[0].SessionID != "r1" {
		t.Errorf("online remote item %+v", items[0])
	}
	if items[1].Title != "web @gpu — working · offline · 1m" || !items[1].Enabled || items[1].Action != ActionJump {
		t.Errorf("offline remote item %+v", items[1])
	}
	if items[1].ToolTip != "offline, last seen 2m ago: /srv/web" {
		t.Errorf("offline tooltip %q", items[1].ToolTip)
	}
}

// A session this machine has no record of goes to the remote planner.
func TestJumperRemoteSession(t *testing.T) {
	j, ex, _ := newJumper(t)
	j.Remote = func(ctx context.Context, id string) (jump.Plan, bool) {
		if id != "far-1" {
			return jump.Plan{}, false
		}
		return jump.Plan{SessionID: id, Precision: jump.Tab, Outer: []jump.Step{{Name: "raise", Argv: []string{"/usr/bin/true", "ssh-tab"}, Gives: jump.Tab}}}, true
	}
	done := make(chan jump.Result, 2)
	j.Jump("far-1", func(r jump.Result) { done <- r })
	if r := <-done; r.Precision != jump.Tab || len(ex.steps) != 1 || ex.steps[0][1] != "ssh-tab" {
		t.Fatalf("remote jump: %+v, steps %q", r, ex.steps)
	}
	j.Jump("nowhere", func(r jump.Result) { done <- r })
	if r := <-done; r.Precision != jump.None || !strings.Contains(r.Message, "cannot read the session") {
		t.Errorf("unknown everywhere: %+v", r)
	}
}
