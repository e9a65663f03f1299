//go:build darwin && cgo

package app

import (
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/objc"

	"github.com/mew-dev/mew/board"
)

// ring plays the alerts' sound and posts their notifications (each as the
// settings allow); main thread.
func ring(alerts []board.Alert) {
	if s := alertSound(alerts, settings); s != "" {
		playSound(s)
	}
	// Not authorized (ad-hoc signed, turned off): the sound above and the
	// panel are the alert.
	for _, n := range notifications(alerts, ctrl.Rows(), settings, notifyState().Post) {
		postNotification(n)
	}
}

// playSound plays a system sound by name ("Ping", "Glass", ...); an
// unknown name plays nothing (objc.Call on nil would panic).
func playSound(name string) {
	s := appkit.Sound_SoundNamed(appkit.SoundName(name))
	if s.IsNil() {
		logger.Printf("no system sound named %q", name)
		return
	}
	s.Play()
}

// UNAuthorizationOptions (UserNotifications/UNUserNotificationCenter.h).
const (
	unAuthorizationOptionSound uint = 1 << 1
	unAuthorizationOptionAlert uint = 1 << 2
)

// UserNotifications classes, looked up once; main thread only.
var (
	unClassesLooked bool
	unClassesOK     bool
	unCenterClass   objc.Class
	unContentClass  objc.Class
	unRequestClass  objc.Class
)

func lookUpNotificationClasses() bool {
	if !unClassesLooked {
		unClassesLooked = true
		var ok1, ok2, ok3 bool
		unCenterClass, ok1 = classNamed("UserNotifications", "UNUserNotificationCenter")
		unContentClass, ok2 = classNamed("UserNotifications", "UNMutableNotificationContent")
		unRequestClass, ok3 = classNamed("UserNotifications", "UNNotificationRequest")
		unClassesOK = ok1 && ok2 && ok3
	}
	return unClassesOK
}

// notificationCenter is [UNUserNotificationCenter currentNotificationCenter].
// Only called when notifyOK: in a process without a bundle the center
// raises an Objective-C exception, which crashes the app.
func notificationCenter() (objc.Object, bool) {
	if !notifyOK || !lookUpNotificationClasses() {
		return objc.Object{}, false
	}
	return objc.Call[objc.Object](unCenterClass, objc.Sel("currentNotificationCenter")), true // objc:+UNUserNotificationCenter
}

// notifyState is notificationState now; main thread.
func notifyState() notifyPlan {
	return notificationState(settings.Notifications, notifyOK, notifyWhy, notifyAuth)
}

// refreshNotifyAuth asks macOS for the authorization status (and asks the
// person, when notificationState says so); the answers arrive on a
// background queue and are handed to the main thread. Main thread.
func refreshNotifyAuth() {
	center, ok := notificationCenter()
	if !ok || !settings.Notifications {
		return
	}
	// objc:UNUserNotificationCenter
	objc.Call[objc.Void](center, objc.Sel("getNotificationSettingsWithCompletionHandler:"),
		func(s objc.Object) {
			status := objc.Call[int](s, objc.Sel("authorizationStatus")) // an NSInteger; objc:UNNotificationSettings
			mainAsync(func() {
				notifyAuth = notifyAnswer{Known: true, Status: status}
				if notifyState().Ask {
					requestNotificationPermission()
				}
			})
		})
}

// requestNotificationPermission asks once; macOS remembers the answer and
// shows no prompt again. An ad-hoc signed app gets an error instead: the
// menu then says so (notificationState). Main thread.
func requestNotificationPermission() {
	center, ok := notificationCenter()
	if !ok {
		return
	}
	// objc:UNUserNotificationCenter
	objc.Call[objc.Void](center, objc.Sel("requestAuthorizationWithOptions:completionHandler:"),
		unAuthorizationOptionAlert|unAuthorizationOptionSound,
		func(granted bool, err objc.Object) {
			// A background queue: hand the answer to the main thread.
			refused := !granted && !err.IsNil()
			mainAsync(func() {
				notifyAuth = notifyAnswer{Known: true, Status: unStatusDenied, Refused: refused}
				if granted {
					notifyAuth.Status = unStatusAuthorized
				}
				if !granted {
					logger.Print("notifications are not allowed (System Settings › Notifications › Mew); sounds and the panel still alert")
				}
			})
		})
}

// postNotification delivers one notification now; main thread. Its sound
// is left out: ring plays the alert's sound itself, once per update.
func postNotification(n notification) {
	center, ok := notificationCenter()
	if !ok {
		return
	}
	alloc := objc.Call[objc.Object](unContentClass, objc.Sel("alloc")) // objc:+UNMutableNotificationContent
	content := objc.Call[objc.Object](alloc, objc.Sel("init"))         // objc:UNMutableNotificationContent
	defer content.Release()                                            // alloc'd here: ours to release
	// Go strings become NSStrings. objc:UNMutableNotificationContent
	objc.Call[objc.Void](content, objc.Sel("setTitle:"), n.Title)
	objc.Call[objc.Void](content, objc.Sel("setBody:"), n.Body) // objc:UNMutableNotificationContent
	// No trigger: deliver now. objc:+UNNotificationRequest
	req := objc.Call[objc.Object](unRequestClass, objc.Sel("requestWithIdentifier:content:trigger:"), n.ID, content, nil)
	// objc:UNUserNotificationCenter
	objc.Call[objc.Void](center, objc.Sel("addNotificationRequest:withCompletionHandler:"), req,
		func(err objc.Object) {
			// A background queue: log only.
			if !err.IsNil() {
				logger.Printf("notification %s was not delivered", n.ID)
			}
		})
}
