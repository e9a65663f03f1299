package app

import (
	"testing"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

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
