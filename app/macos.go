package app

// Decisions for the macOS side that a review against darwinkit v0.5.0,
// CoreFoundation and the system headers found wrong (issue 16). Each is
// pure and tested here; the _darwin.go files only carry them out.

// timerModes are the run loop modes the 8 Hz timer is added to, by name.
// Not kCFRunLoopCommonModes: darwinkit's RunLoopCommonModes is a Go string,
// so every call sends a new NSString, and CFRunLoopAddTimer recognises the
// common modes by pointer identity (CFRunLoop.c): the timer would land in
// a mode of that name that never runs, and the panel would freeze on its
// first frame. A named mode is found by value, so these three work: the
// default mode, menu tracking (the status menu is open) and modal panels
// (a dialog is up).
var timerModes = []string{
	"kCFRunLoopDefaultMode",      // NSDefaultRunLoopMode
	"NSEventTrackingRunLoopMode", // NSEventTrackingRunLoopMode (AppKit)
	"NSModalPanelRunLoopMode",    // NSModalPanelRunLoopMode (AppKit)
}

// alertStyle is an NSAlert's style.
type alertStyle int

const (
	alertInformational alertStyle = iota // NSAlertStyleInformational
	alertCritical                        // NSAlertStyleCritical
)

// styleOf is the alert style of a dialog: critical for a failure, so it
// does not look like the success messages.
func styleOf(d dialog) alertStyle {
	if d.Failed {
		return alertCritical
	}
	return alertInformational
}

// dialogQueue shows one dialog at a time. A modal alert runs a nested run
// loop: run inside a main-queue block, the main queue is not serviced until
// it closes (every update, sound and timer hand-over waits), so the darwin
// side never shows a dialog from a dispatched block; it queues it here and
// shows it from a run-loop callback (RunLoop performBlock:). Main thread
// only.
type dialogQueue struct {
	waiting []dialog
	showing bool
}

// Add queues d; it reports whether the caller must schedule Next (no
// dialog is up or scheduled).
func (q *dialogQueue) Add(d dialog) (schedule bool) {
	q.waiting = append(q.waiting, d)
	if q.showing {
		return false
	}
	q.showing = true
	return true
}

// Next takes the dialog to show now; ok is false when none waits (and the
// queue is idle again). Call it from the scheduled callback, and again
// after each dialog closes.
func (q *dialogQueue) Next() (d dialog, ok bool) {
	if len(q.waiting) == 0 {
		q.showing = false
		return dialog{}, false
	}
	d = q.waiting[0]
	q.waiting = q.waiting[1:]
	return d, true
}

// activityReason is what Mew tells macOS when it opts out of App Nap.
const activityReason = "Mew watches coding-agent sessions and must notice at once when one needs you"

// Activity options (Foundation/NSProcessInfo.h, NSActivityOptions).
const (
	activityIdleSystemSleepDisabled uint64 = 1 << 20
	activityUserInitiated           uint64 = 0x00FFFFFF | activityIdleSystemSleepDisabled
)

// monitorActivity are the options of the activity the app holds for its
// whole life: user initiated (App Nap would otherwise throttle the file
// watchers and timers of an app with no window in front, and the panel
// would open late), but allowing idle system sleep: Mew must not keep a
// Mac awake.
const monitorActivity = activityUserInitiated &^ activityIdleSystemSleepDisabled
