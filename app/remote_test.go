package app

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Sessions on other machines are listed with their host; an offline host's
// sessions say so, and stay clickable (the jump says what it can reach).
func TestMenuRemoteSessions(t *testing.T) {
	on := shown("r1", session.Waiting, t0.Add(-12*time.Second), "/srv/api")
	on.Host = "devbox"
	off := shown("r2", session.Working, t0.Add(-time.Minute), "/srv/web")
	off.Host, off.Offline, off.LastSeen = "gpu", true, t0.Add(-2*time.Minute)
	items := buildMenu(menuState{Rows: rowsAt(t0, on, off)})
	if items[0].Title != "api @devbox — waiting · permission · 12s" || items[0].SessionID != "r1" {
		t.Errorf("online remote item %+v", items[0])
	}
	if items[1].Title != "web @gpu — working · offline · 1m" || !items[1].Enabled || items[1].Action != actionJump {
		t.Errorf("offline remote item %+v", items[1])
	}
	if items[1].ToolTip != "offline, last seen 2m ago: /srv/web" {
		t.Errorf("offline tooltip %q", items[1].ToolTip)
	}
}
