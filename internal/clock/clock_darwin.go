package clock

import "golang.org/x/sys/unix"

// macOS's CLOCK_MONOTONIC keeps counting while the machine sleeps
// (mach_continuous_time), like Linux's CLOCK_BOOTTIME.
func mono() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0
	}
	return ts.Nano()
}
