package app

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestMenuMuteAndSnoozeItems(t *testing.T) {
	rows := rowsAt(t0,
		shown("w1", session.Waiting, t0.Add(-12*time.Second), "/src/alpha"),
		shown("k1", session.Working, t0.Add(-time.Minute), "/src/beta"),
		shown("k2", session.Working, t0.Add(-time.Minute), "/src/gamma"),
	)
	items := buildMenu(menuState{Rows: rows, Now: t0,
		Muted:   map[string]bool{"k1": true},
		Snoozed: map[string]time.Time{"k2": t0.Add(30 * time.Minute)},
	})
	var got []menuItem
	for _, it := range items {
		if it.Action == actionToggleMute || it.Action == actionToggleSnooze {
			got = append(got, it)
		}
	}
	// The waiting session, then the muted one and the snoozed one (so
	// they can be undone); a plain working session has none.
	want := []struct {
		id      string
		a       action
		checked bool
	}{
		{"w1", actionToggleMute, false}, {"w1", actionToggleSnooze, false},
		{"k1", actionToggleMute, true}, {"k1", actionToggleSnooze, false},
		{"k2", actionToggleMute, false}, {"k2", actionToggleSnooze, true},
	}
	if len(got) != len(want) {
		t.Fatalf("items %q", titles(got))
	}
	for i, w := range want {
		if got[i].SessionID != w.id || got[i].Action != w.a || got[i].Checked != w.checked || !got[i].Enabled {
			t.Errorf("item %d: %+v, want %+v", i, got[i], w)
		}
	}
	// A snooze that ended is no longer shown as one.
	items = buildMenu(menuState{Rows: rows, Now: t0.Add(time.Hour), Snoozed: map[string]time.Time{"k2": t0.Add(30 * time.Minute)}})
	for _, it := range items {
		if it.SessionID == "k2" && it.Action != actionJump {
			t.Fatalf("k2 listed after its snooze: %q", it.Title)
		}
	}
}
