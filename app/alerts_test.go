package app

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func TestAlertSound(t *testing.T) {
	alerts := []board.Alert{{ID: "a", Sound: "Ping"}, {ID: "b", Sound: "Hero"}}
	if got := alertSound(alerts, appSettings{Sounds: true}); got != "Ping" {
		t.Errorf("most urgent first: %q", got)
	}
	if got := alertSound(alerts, appSettings{Sounds: false}); got != "" {
		t.Errorf("sounds off: %q", got)
	}
	if got := alertSound(nil, appSettings{Sounds: true}); got != "" {
		t.Errorf("no alerts: %q", got)
	}
	// The sounds the board names are system sounds (/System/Library/Sounds).
	system := map[string]bool{"Basso": true, "Blow": true, "Bottle": true, "Frog": true, "Funk": true, "Glass": true,
		"Hero": true, "Morse": true, "Ping": true, "Pop": true, "Purr": true, "Sosumi": true, "Submarine": true, "Tink": true}
	for k, s := range board.Sounds {
		if !system[s] {
			t.Errorf("board sound %s=%q is not a macOS system sound", k, s)
		}
	}
	if !system[jumpFailedSound] {
		t.Errorf("JumpFailedSound %q is not a system sound", jumpFailedSound)
	}
}

func TestNotifications(t *testing.T) {
	old := t0.Add(-time.Minute)
	w := shown("w1", session.Waiting, old, "/src/alpha")
	d := shown("d1", session.Done, old, "/src/beta")
	d.LastMessage = "All tests pass.\nShipped."
	rows := rowsAt(t0, w, d)
	alerts := []board.Alert{
		{ID: "w1", Project: "alpha", State: session.Waiting, Reason: session.ReasonPermission, Sound: "Ping"},
		{ID: "d1", Project: "beta", State: session.Done, Sound: "Hero"},
		{ID: "../x", Project: "bad", State: session.Done},
	}
	on := appSettings{Notifications: true}
	got := notifications(alerts, rows, on, true)
	want := []notification{
		{ID: "dev.mew.Mew.session.w1", Title: "alpha needs your permission", Body: "Bash: rm -rf build"},
		{ID: "dev.mew.Mew.session.d1", Title: "beta is done", Body: "All tests pass. Shipped."},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("notification %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := notifications(alerts, rows, appSettings{}, true); n != nil {
		t.Errorf("setting off: %+v", n)
	}
	if n := notifications(alerts, rows, on, false); n != nil {
		t.Errorf("outside Mew.app: %+v", n)
	}
	long := []board.Alert{{ID: "w1", Project: strings.Repeat("p", 300), State: session.Failed}}
	if n := notifications(long, nil, on, true); len([]rune(n[0].Title)) > notifyTitleRunes || !strings.HasSuffix(n[0].Title, "…") {
		t.Errorf("long title not cut: %q", n[0].Title)
	}
}

func TestAlertVerbs(t *testing.T) {
	for _, c := range []struct {
		a    board.Alert
		want string
	}{
		{board.Alert{State: session.Waiting, Reason: session.ReasonQuestion}, "has a question"},
		{board.Alert{State: session.Waiting, Reason: session.ReasonPlan}, "has a plan for you to review"},
		{board.Alert{State: session.Waiting, Reason: session.ReasonInput}, "is waiting for you"},
		{board.Alert{State: session.Waiting}, "is waiting for you"},
		{board.Alert{State: session.Failed}, "failed"},
	} {
		if got := c.a.Verb(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.a, got, c.want)
		}
	}
}
