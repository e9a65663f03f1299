//go:build darwin && cgo

package app

import (
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/objc"

	"github.com/mew-dev/mew/app/board"
)

// ring plays the alerts' sound and posts their notifications (each as the
// settings allow); main thread.
func ring(alerts []board.Alert) {
	if s := AlertSound(alerts, settings); s != "" {
		playSound(s)
	}
	for _, n := range Notifications(alerts, ctrl.Rows(), settings, notifyOK) {
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
	return objc.Call[objc.Object](unCenterClass, objc.Sel("currentNotificationCenter")), true
}

// requestNotificationPermission asks once; macOS remembers the answer and
// shows no prompt again. Main thread.
func requestNotificationPermission() {
	center, ok := notificationCenter()
	if !ok {
		return
	}
	objc.Call[objc.Void](center, objc.Sel("requestAuthorizationWithOptions:completionHandler:"),
		unAuthorizationOptionAlert|unAuthorizationOptionSound,
		func(granted bool, err objc.Object) {
			// A background queue: no AppKit here, only the log.
			if !granted {
				logger.Print("notifications are not allowed (System Settings › Notifications › Mew)")
			}
		})
}

// postNotification delivers one notification now; main thread. Its sound
// is left out: ring plays the alert's sound itself, once per update.
func postNotification(n Notification) {
	center, ok := notificationCenter()
	if !ok {
		return
	}
	content := objc.Call[objc.Object](objc.Call[objc.Object](unContentClass, objc.Sel("alloc")), objc.Sel("init"))
	defer content.Release()                                       // alloc'd here: ours to release
	objc.Call[objc.Void](content, objc.Sel("setTitle:"), n.Title) // Go strings become NSStrings
	objc.Call[objc.Void](content, objc.Sel("setBody:"), n.Body)
	req := objc.Call[objc.Object](unRequestClass, objc.Sel("requestWithIdentifier:content:trigger:"),
		n.ID, content, nil) // no trigger: deliver now
	objc.Call[objc.Void](center, objc.Sel("addNotificationRequest:withCompletionHandler:"), req,
		func(err objc.Object) {
			// A background queue: log only.
			if !err.IsNil() {
				logger.Printf("notification %s was not delivered", n.ID)
			}
		})
}

// showDialog shows a message in an alert window; main thread. Mew is an
// accessory app, so it comes forward first or the alert opens behind the
// person's windows.
func showDialog(d Dialog) {
	nsApp.ActivateIgnoringOtherApps(true)
	a := appkit.NewAlert()
	a.SetMessageText(d.Title)
	a.SetInformativeText(d.Text)
	if d.Failed {
		a.SetAlertStyle(appkit.AlertStyleWarning)
	}
	a.AddButtonWithTitle("OK")
	a.RunModal()       // the 8 Hz timer runs on in common modes meanwhile
	nsApp.Deactivate() // the keyboard goes back to the person's app
}
