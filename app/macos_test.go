package app

import (
	"slices"
	"testing"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func TestTimerModesAreNamedModesNotCommonModes(t *testing.T) {
	// kCFRunLoopCommonModes is recognised by pointer identity: a new
	// NSString with that text is an ordinary mode that never runs.
	if slices.Contains(timerModes, "kCFRunLoopCommonModes") {
		t.Fatal("the timer must not be added to common modes by name")
	}
	for _, m := range []string{"kCFRunLoopDefaultMode", "NSEventTrackingRunLoopMode", "NSModalPanelRunLoopMode"} {
		if !slices.Contains(timerModes, m) {
			t.Errorf("the timer does not run in %s", m)
		}
	}
}

func TestFailuresAreCritical(t *testing.T) {
	if styleOf(dialog{Title: "Doctor", Text: "ok"}) != alertInformational {
		t.Error("a success must not look like a warning")
	}
	if styleOf(dialog{Title: "Doctor failed", Failed: true}) != alertCritical {
		t.Error("a failure must be critical")
	}
	// The command dialogs carry Failed through.
	if d := commandDialog(doctorCommand, "", errFake{}); styleOf(d) != alertCritical {
		t.Errorf("failed command: %+v", d)
	}
}

type errFake struct{}

func (errFake) Error() string { return "boom" }

func TestDialogQueueShowsOneAtATime(t *testing.T) {
	var q dialogQueue
	if !q.Add(dialog{Title: "a"}) {
		t.Fatal("the first dialog must be scheduled")
	}
	if q.Add(dialog{Title: "b"}) {
		t.Fatal("a second dialog must wait, not schedule another modal")
	}
	d, ok := q.Next()
	if !ok || d.Title != "a" {
		t.Fatalf("first: %+v %v", d, ok)
	}
	if q.Add(dialog{Title: "c"}) {
		t.Fatal("while a dialog is up, new ones wait")
	}
	for _, want := range []string{"b", "c"} {
		if d, ok := q.Next(); !ok || d.Title != want {
			t.Fatalf("next: %+v %v, want %s", d, ok, want)
		}
	}
	if _, ok := q.Next(); ok {
		t.Fatal("empty queue gave a dialog")
	}
	if !q.Add(dialog{Title: "d"}) {
		t.Fatal("an idle queue schedules again")
	}
}

func TestMonitorActivityOptsOutOfAppNapButLetsTheMacSleep(t *testing.T) {
	// NSActivityUserInitiatedAllowingIdleSystemSleep (NSProcessInfo.h).
	if monitorActivity != 0x00EFFFFF {
		t.Fatalf("options %#x", monitorActivity)
	}
	if monitorActivity&(1<<20) != 0 {
		t.Fatal("idle system sleep must stay allowed")
	}
	if monitorActivity&0xFF == 0 {
		t.Fatal("no user-initiated bits: App Nap would still apply")
	}
}

func TestNotificationState(t *testing.T) {
	authorized := notifyAnswer{Known: true, Status: unStatusAuthorized}
	cases := []struct {
		name      string
		setting   bool
		available bool
		auth      notifyAnswer
		post, on  bool
		ask       bool
		why       bool
	}{
		{"authorized", true, true, authorized, true, true, false, false},
		{"provisional", true, true, notifyAnswer{Known: true, Status: unStatusProvisional}, true, true, false, false},
		{"setting off", false, true, authorized, false, false, false, false},
		{"not a bundle", true, false, authorized, false, false, false, true},
		{"not asked yet", true, true, notifyAnswer{}, false, true, true, false},
		{"undetermined", true, true, notifyAnswer{Known: true}, false, true, true, false},
		{"denied", true, true, notifyAnswer{Known: true, Status: unStatusDenied}, false, false, false, true},
		// Ad-hoc signed: the request fails; the menu must not say on.
		{"refused (ad-hoc signature)", true, true, notifyAnswer{Known: true, Refused: true}, false, false, false, true},
		{"unknown status", true, true, notifyAnswer{Known: true, Status: 9}, false, false, false, true},
	}
	for _, c := range cases {
		s := notificationState(c.setting, c.available, "needs Mew.app", c.auth)
		if s.Post != c.post || s.Toggle.On != c.on || s.Ask != c.ask || (s.Toggle.Unavailable != "") != c.why {
			t.Errorf("%s: %+v", c.name, s)
		}
		if !s.Post && notifications(alertsFor("s1"), nil, appSettings{Notifications: c.setting, Sounds: true}, s.Post) != nil {
			t.Errorf("%s: notifications posted while not allowed", c.name)
		}
		// The fallback: the sound still rings.
		if alertSound(alertsFor("s1"), appSettings{Sounds: true}) == "" {
			t.Errorf("%s: no sound", c.name)
		}
	}
}

func alertsFor(id string) []board.Alert {
	return []board.Alert{{ID: id, Sound: "Ping", State: session.Waiting, Reason: session.ReasonPermission}}
}
