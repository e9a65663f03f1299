package app

// UNAuthorizationStatus values (UserNotifications/UNNotificationSettings.h).
const (
	unStatusNotDetermined = 0
	unStatusDenied        = 1
	unStatusAuthorized    = 2
	unStatusProvisional   = 3
	unStatusEphemeral     = 4
)

// notifyAnswer is what macOS said about Mew's notifications.
type notifyAnswer struct {
	Known  bool // an answer came (getNotificationSettings or the request)
	Status int  // UNAuthorizationStatus, when Known
	// Refused: the authorization request failed with an error, which is
	// how macOS answers an ad-hoc signed app.
	Refused bool
}

// notifyPlan is the notifications setting as the menu shows it and as
// delivery uses it.
type notifyPlan struct {
	// Post: notifications are delivered (the setting is on, the bundle can
	// use the center, and macOS authorized them).
	Post bool
	// Toggle is the menu item: on only when notifications really arrive,
	// with the reason when they cannot.
	Toggle toggle
	// Ask: request authorization now (the setting is on and macOS has not
	// been asked yet).
	Ask bool
}

// notificationState decides whether notifications are posted and what the
// menu says. macOS refuses them to an ad-hoc signed app (and to one the
// person turned off), while the setting may still say on: the menu shows
// the real state, and alerts fall back to the sound and the panel, which
// ring and show whatever this says.
func notificationState(setting bool, available bool, unavailableWhy string, auth notifyAnswer) notifyPlan {
	if !available {
		return notifyPlan{Toggle: toggle{Unavailable: unavailableWhy}}
	}
	if !setting {
		return notifyPlan{}
	}
	switch {
	case auth.Refused:
		return notifyPlan{Toggle: toggle{Unavailable: "refused by macOS; sounds and the panel still alert"}}
	case !auth.Known || auth.Status == unStatusNotDetermined:
		// Not answered yet: ask, and post nothing until macOS answers.
		return notifyPlan{Toggle: toggle{On: true}, Ask: true}
	}
	switch auth.Status {
	case unStatusAuthorized, unStatusProvisional, unStatusEphemeral:
		return notifyPlan{Post: true, Toggle: toggle{On: true}}
	case unStatusDenied:
		return notifyPlan{Toggle: toggle{Unavailable: "off in System Settings › Notifications; sounds and the panel still alert"}}
	}
	return notifyPlan{Toggle: toggle{Unavailable: "macOS refused them; sounds and the panel still alert"}}
}
