package clock

import "golang.org/x/sys/unix"

// CLOCK_BOOTTIME: CLOCK_MONOTONIC plus time suspended.
func mono() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return ts.Nano()
}
