package app

// App Nap: the activity the app holds so macOS does not throttle it
// (app_darwin.go begins it).

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
