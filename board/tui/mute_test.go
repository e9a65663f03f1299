package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/session"
)

// m mutes the selected session: its wait no longer rings; z snoozes
// another one the same way until the snooze ends.
func TestMuteAndSnoozeKeysSilenceTheBell(t *testing.T) {
	c := &clock{t0}
	var bell bytes.Buffer
	prefs := &alertprefs.Store{Home: t.TempDir()}
	m := New(Options{Now: c.Now, Bell: &bell, Plain: true, Mutes: prefs, Facts: func() board.AlertFacts {
		p, _ := prefs.Load()
		return board.AlertFacts{Muted: p.Muted, Snoozed: p.Snoozed}
	}})
	sessions := []session.Shown{
		shown("a", session.Working, "", time.Minute, "/src/a"),
		shown("b", session.Working, "", time.Minute, "/src/b"),
	}
	step(t, m, Update{Sessions: sessions})
	advance := func(d time.Duration) { c.now = c.now.Add(d); step(t, m, tickMsg(c.now)) }

	step(t, m, key("m")) // a is selected (working rows by project)
	if !strings.Contains(m.text(), "a muted") {
		t.Fatalf("no word of the mute:\n%s", m.text())
	}
	step(t, m, key("down"))
	step(t, m, key("z"))
	if !strings.Contains(m.text(), "b snoozed until") {
		t.Fatalf("no word of the snooze:\n%s", m.text())
	}
	for i := range sessions {
		sessions[i] = shown(sessions[i].ID, session.Waiting, session.ReasonPermission, 0, sessions[i].Cwd)
		sessions[i].Since = c.now
	}
	step(t, m, Update{Sessions: sessions})
	advance(time.Second)
	if bell.Len() != 0 {
		t.Fatalf("a muted and a snoozed session rang: %q", bell.String())
	}
	// The snooze ends; b's next wait rings.
	c.now = c.now.Add(2 * time.Hour)
	sessions[1] = shown("b", session.Working, "", 0, "/src/b")
	sessions[1].Since = c.now
	step(t, m, Update{Sessions: sessions})
	sessions[1] = shown("b", session.Waiting, session.ReasonPermission, 0, "/src/b")
	sessions[1].Since = c.now
	step(t, m, Update{Sessions: sessions})
	advance(time.Second)
	if bell.String() != "\a" {
		t.Fatalf("after the snooze: bell %q, want one", bell.String())
	}
}
