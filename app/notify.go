package app

// UNAuthorizationStatus values (UserNotifications/UNNotificationSettings.h).
const (
	UNStatusNotDetermined = 0
	UNStatusDenied        = 1
	UNStatusAuthorized    = 2
	UNStatusProvisional   = 3
	UNStatusEphemeral     = 4
)

// NotifyAuth is what macOS said about Mew's notifications.
type NotifyAuth struct {
	Known  bool // an answer came (getNotificationSettings or the request)
	Status int  // UNAuthorizationStatus, when Known
	// Refused: the authorization request failed with an error, which is
	// how macOS answers an ad-hoc signed app.
	Refused bool
}

// NotifyState is the notifications setting as the menu shows it and as
// delivery uses it.
type NotifyState struct {
	// Post: notifications are delivered (the setting is on, the bundle can
	// use the center, and macOS authorized them).
	Post bool
	// Toggle is the menu item: on only when notifications really arrive,
	// with the reason when they cannot.
	Toggle Toggle
	// Ask: request authorization now (the setting is on and macOS has not
	// been asked yet).
	Ask bool
}

// NotificationState decides whether notifications are posted and what the
// menu says. macOS refuses them to an ad-hoc signed app (and to one the
// person turned off), while the setting may still say on: the menu shows
// the real state, and alerts fall back to the sound and the panel, which
// ring and show whatever this says.
func NotificationState(setting bool, available bool, unavailableWhy string, auth NotifyAuth) NotifyState {
	if !available {
		return NotifyState{Toggle: Toggle{Unavailable: unavailableWhy}}
	}
	if !setting {
		return NotifyState{}
	}
	switch {
	case auth.Refused:
		return NotifyState{Toggle: Toggle{Unavailable: "refused by macOS; sounds and the panel still alert"}}
	case !auth.Known || auth.Status == UNStatusNotDetermined:
		// Not answered yet: ask, and post nothing until macOS answers.
		return NotifyState{Toggle: Toggle{On: true}, Ask: true}
	}
	switch auth.Status {
	case UNStatusAuthorized, UNStatusProvisional, UNStatusEphemeral:
		return NotifyState{Post: true, Toggle: Toggle{On: true}}
	case UNStatusDenied:
		return NotifyState{Toggle: Toggle{Unavailable: "off in System Settings › Notifications; sounds and the panel still alert"}}
	}
	return NotifyState{Toggle: Toggle{Unavailable: "macOS refused them; sounds and the panel still alert"}}
}
