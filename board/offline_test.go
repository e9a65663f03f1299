package board

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func remoteShown(id string, st session.State, since time.Duration, cwd, host string, offline bool, lastSeen time.Time) session.Shown {
	s := sh(id, st, since, cwd)
	s.Host, s.Offline, s.LastSeen = host, offline, lastSeen
	if st == session.Waiting {
		s.Reason = session.ReasonPermission
	}
	return s
}

func TestArrangeRemoteSessions(t *testing.T) {
	now := t0
	in := []session.Shown{
		sh("local-1", session.Waiting, -time.Minute, "/p/shop"),
		remoteShown("remote-1", session.Waiting, -2*time.Minute, "/srv/api", "devbox", true, now.Add(-3*time.Minute)),
		remoteShown("remote-2", session.Working, -time.Minute, "/srv/web", "devbox", false, time.Time{}),
	}
	rows := Arrange(in, now, DefaultConfig())
	if len(rows) != 3 {
		t.Fatalf("rows %v", ids(rows))
	}
	// An offline host's waiting session is still waiting (its last state),
	// in its place, never exited.
	r := rows[0]
	if r.Session.ID != "remote-1" || r.State != session.Waiting || r.Group != GroupWaiting || r.Project != "api @devbox" {
		t.Errorf("offline row %+v", r)
	}
	if r.Offline != "offline, last seen 3m ago" {
		t.Errorf("offline note %q", r.Offline)
	}
	if rows[1].Project != "shop" || rows[1].Offline != "" || rows[2].Project != "web @devbox" || rows[2].Offline != "" {
		t.Errorf("rows %+v", rows[1:])
	}
}

// A host going offline and coming back rings nothing and does not reopen
// a panel the person closed; a real change after it does.
func TestHostGoingOfflineIsNoAlert(t *testing.T) {
	b := New(DefaultConfig())
	now := t0
	online := []session.Shown{remoteShown("r1", session.Working, -time.Minute, "/srv/api", "devbox", false, time.Time{})}
	b.Update(online, now)
	now = now.Add(time.Second)
	online[0] = remoteShown("r1", session.Waiting, -2*time.Second, "/srv/api", "devbox", false, time.Time{})
	online[0].Since = now.Add(-2 * time.Second)
	v := b.Update(online, now)
	if len(v.Alerts) != 1 || !v.Open {
		t.Fatalf("the wait itself: alerts %+v, open %v", v.Alerts, v.Open)
	}
	b.Close()
	for i, off := range []bool{true, false, true} {
		now = now.Add(10 * time.Second)
		s := online[0]
		s.Offline, s.LastSeen = off, now.Add(-5*time.Second)
		if !off {
			s.LastSeen = time.Time{}
		}
		v := b.Update([]session.Shown{s}, now)
		if len(v.Alerts) != 0 || len(v.Entered) != 0 || v.Open {
			t.Fatalf("step %d (offline %v): alerts %+v, entered %v, open %v", i, off, v.Alerts, v.Entered, v.Open)
		}
	}
	now = now.Add(time.Minute)
	done := online[0]
	done.State, done.Reason, done.Since = session.Done, "", now.Add(-5*time.Second)
	if v := b.Update([]session.Shown{done}, now); len(v.Alerts) != 1 {
		t.Errorf("a real change after the host came back: alerts %+v", v.Alerts)
	}
}

// An offline row is the same picture greyed, and it stands still.
func TestOfflineRowIsGreyedAndStill(t *testing.T) {
	now := t0
	for _, st := range []session.State{session.Waiting, session.Working, session.Done, session.Failed} {
		on := Arrange([]session.Shown{remoteShown("r1", st, -time.Minute, "/srv/api", "devbox", false, time.Time{})}, now, DefaultConfig())
		off := Arrange([]session.Shown{remoteShown("r1", st, -time.Minute, "/srv/api", "devbox", true, now.Add(-time.Minute))}, now, DefaultConfig())
		fOn, fOff := Draw(on, now, 0), Draw(off, now, 0)
		if len(fOn.Rects) != len(fOff.Rects) {
			t.Fatalf("%s: %d rects online, %d offline", st, len(fOn.Rects), len(fOff.Rects))
		}
		header := 1 // the header bar is not part of the row
		for i := header; i < len(fOn.Rects); i++ {
			a, b := fOn.Rects[i], fOff.Rects[i]
			if a.X != b.X || a.Y != b.Y || a.W != b.W || a.H != b.H || b.Color != greyed(a.Color) {
				t.Fatalf("%s: rect %d online %+v, offline %+v (want the same, greyed)", st, i, a, b)
			}
		}
		var lines []string
		for _, tx := range fOff.Texts {
			lines = append(lines, tx.S)
		}
		if !strings.Contains(strings.Join(lines, "|"), "offline, last seen 1m ago") {
			t.Errorf("%s: texts %q", st, lines)
		}
		if len(fOff.Hits) != 1 || fOff.Hits[0].ID != "r1" {
			t.Errorf("%s: an offline row must stay clickable (the jump says what it can do): %+v", st, fOff.Hits)
		}
		sc := NewScene()
		sc.Tick(off, now)
		for range 40 {
			if f := sc.Tick(off, now); !f.Unchanged {
				t.Fatalf("%s: an offline row moved at tick %d", st, f.Tick)
			}
		}
	}
}
