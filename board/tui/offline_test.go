package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func TestRemoteAndOfflineLines(t *testing.T) {
	local := shown("l1", session.Working, "", time.Minute, "/p/shop")
	on := shown("r1", session.Waiting, session.ReasonPermission, 2*time.Minute, "/srv/api")
	on.Host = "devbox"
	off := shown("r2", session.Done, "", 3*time.Minute, "/srv/web")
	off.Host, off.Offline, off.LastSeen = "gpu", true, t0.Add(-90*time.Second)
	out := Render([]session.Shown{local, on, off}, board.DefaultConfig(), t0, 120)
	lines := strings.Split(out, "\n")
	find := func(s string) string {
		for _, l := range lines {
			if strings.Contains(l, s) {
				return l
			}
		}
		t.Fatalf("no line with %q in:\n%s", s, out)
		return ""
	}
	if l := find("api @devbox"); !strings.Contains(l, "waiting · permission") || strings.Contains(l, "offline") {
		t.Errorf("online remote line %q", l)
	}
	if l := find("web @gpu"); !strings.Contains(l, "done") || !strings.Contains(l, "offline, last seen 1m ago") {
		t.Errorf("offline remote line %q", l)
	}
	if l := find("shop"); strings.Contains(l, "@") {
		t.Errorf("local line %q names a host", l)
	}
}
