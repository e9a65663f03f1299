//go:build darwin && cgo

package app

import (
	"time"

	"github.com/progrium/darwinkit/macos/foundation"

	"github.com/mew-dev/mew/board"
)

// The 8 Hz timer. Main thread only.
var (
	// ticker is retained while it runs (the run loop also holds it until
	// Invalidate); a new one is made on every start.
	ticker  foundation.Timer
	ticking bool
	// recheck is the one-shot re-evaluation while the timer is stopped.
	recheck *time.Timer
)

// setTicking starts or stops the redraw timer (effects.Tick: the panel is
// shown and not occluded).
func setTicking(on bool) {
	if on == ticking {
		return
	}
	ticking = on
	if !on {
		ticker.Invalidate() // the run loop lets go of it
		old := ticker
		// Released on a later turn: this may run inside the timer's own
		// block, and the timer must outlive its callback.
		mainAsync(func() { old.Release() })
		return
	}
	ticker = foundation.Timer_TimerWithTimeIntervalRepeatsBlock(
		foundation.TimeInterval(board.TickInterval.Seconds()), true,
		func(foundation.Timer) { apply(ctrl.Tick(time.Now())) })
	ticker.Retain() // by hand: a new timer replaces the old one on every start
	addToTimerModes(ticker)
}

// addToTimerModes schedules t in timerModes, by name: it keeps firing
// while the status menu is open or a dialog is up. Never
// foundation.RunLoopCommonModes (see timerModes: a Go string is a new
// NSString each call, which CFRunLoop does not take for the common modes).
func addToTimerModes(t foundation.Timer) {
	rl := foundation.RunLoop_MainRunLoop()
	for _, m := range timerModes {
		rl.AddTimerForMode(t, foundation.RunLoopMode(m))
	}
}

// scheduleRecheck arranges controller.Recheck after d (0: none), for a
// needs-you state that settles while the timer is stopped. A Go timer: its
// goroutine only hands the work to the main thread.
func scheduleRecheck(d time.Duration) {
	if recheck != nil {
		recheck.Stop()
		recheck = nil
	}
	if d <= 0 {
		return
	}
	recheck = time.AfterFunc(d, func() {
		mainAsync(func() { apply(ctrl.Recheck(time.Now())) })
	})
}
