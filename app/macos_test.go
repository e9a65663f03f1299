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
	if slices.Contains(TimerModes, "kCFRunLoopCommonModes") {
		t.Fatal("the timer must not be added to common modes by name")
	}
	for _, m := range []string{"kCFRunLoopDefaultMode", "NSEventTrackingRunLoopMode", "NSModalPanelRunLoopMode"} {
		if !slices.Contains(TimerModes, m) {
			t.Errorf("the timer does not run in %s", m)
		}
	}
}

func TestFailuresAreCritical(t *testing.T) {
	if StyleOf(Dialog{Title: "Doctor", Text: "ok"}) != AlertInformational {
		t.Error("a success must not look like a warning")
	}
	if StyleOf(Dialog{Title: "Doctor failed", Failed: true}) != AlertCritical {
		t.Error("a failure must be critical")
	}
	// The command dialogs carry Failed through.
	if d := commandDialog(DoctorCommand, "", errFake{}); StyleOf(d) != AlertCritical {
		t.Errorf("failed command: %+v", d)
	}
}

type errFake struct{}

func (errFake) Error() string { return "boom" }

func TestDialogQueueShowsOneAtATime(t *testing.T) {
	var q DialogQueue
	if !q.Add(Dialog{Title: "a"}) {
		t.Fatal("the first dialog must be scheduled")
	}
	if q.Add(Dialog{Title: "b"}) {
		t.Fatal("a second dialog must wait, not schedule another modal")
	}
	d, ok := q.Next()
	if !ok || d.Title != "a" {
		t.Fatalf("first: %+v %v", d, ok)
	}
	if q.Add(Dialog{Title: "c"}) {
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
	if !q.Add(Dialog{Title: "d"}) {
		t.Fatal("an idle queue schedules again")
	}
}

func TestMonitorActivityOptsOutOfAppNapButLetsTheMacSleep(t *testing.T) {
	// NSActivityUserInitiatedAllowingIdleSystemSleep (NSProcessInfo.h).
	if MonitorActivity != 0x00EFFFFF {
		t.Fatalf("options %#x", MonitorActivity)
	}
	if MonitorActivity&(1<<20) != 0 {
		t.Fatal("idle system sleep must stay allowed")
	}
	if MonitorActivity&0xFF == 0 {
		t.Fatal("no user-initiated bits: App Nap would still apply")
	}
}

func TestNotificationState(t *testing.T) {
	authorized := NotifyAuth{Known: true, Status: UNStatusAuthorized}
	cases := []struct {
		name      string
		setting   bool
		available bool
		auth      NotifyAuth
		post, on  bool
		ask       bool
		why       bool
	}{
		{"authorized", true, true, authorized, true, true, false, false},
		{"provisional", true, true, NotifyAuth{Known: true, Status: UNStatusProvisional}, true, true, false, false},
		{"setting off", false, true, authorized, false, false, false, false},
		{"not a bundle", true, false, authorized, false, false, false, true},
		{"not asked yet", true, true, NotifyAuth{}, false, true, true, false},
		{"undetermined", true, true, NotifyAuth{Known: true}, false, true, true, false},
		{"denied", true, true, NotifyAuth{Known: true, Status: UNStatusDenied}, false, false, false, true},
		// Ad-hoc signed: the request fails; the menu must not say on.
		{"refused (ad-hoc signature)", true, true, NotifyAuth{Known: true, Refused: true}, false, false, false, true},
		{"unknown status", true, true, NotifyAuth{Known: true, Status: 9}, false, false, false, true},
	}
	for _, c := range cases {
		s := NotificationState(c.setting, c.available, "needs Mew.app", c.auth)
		if s.Post != c.post || s.Toggle.On != c.on || s.Ask != c.ask || (s.Toggle.Unavailable != "") != c.why {
			t.Errorf("%s: %+v", c.name, s)
		}
		if !s.Post && Notifications(alertsFor("s1"), nil, Settings{Notifications: c.setting, Sounds: true}, s.Post) != nil {
			t.Errorf("%s: notifications posted while not allowed", c.name)
		}
		// The fallback: the sound still rings.
		if AlertSound(alertsFor("s1"), Settings{Sounds: true}) == "" {
			t.Errorf("%s: no sound", c.name)
		}
	}
}

func alertsFor(id string) []board.Alert {
	return []board.Alert{{ID: id, Sound: "Ping", State: session.Waiting, Reason: session.ReasonPermission}}
}
