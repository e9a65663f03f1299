//go:build darwin && cgo

package app

import (
	"time"

	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"

	"github.com/mew-dev/mew/board"
)

// The 8 Hz timer. Main thread only.
var (
	// ticker is made once, on the first start, and lives for the app
	// (darwinkit rule "retained globals"): stopping it moves its next fire
	// to the distant future, starting it moves it to now. Never a new
	// timer per start: each would be a new darwinkit block, and darwinkit
	// v0.5.0 frees a block's Go side when the block is disposed while the
	// timer may still call it (a use-after-free).
	ticker     foundation.Timer
	tickerMade bool
	ticking    bool
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
	if !tickerMade {
		tickerMade = true
		ticker = foundation.Timer_TimerWithTimeIntervalRepeatsBlock(
			foundation.TimeInterval(board.TickInterval.Seconds()), true,
			func(foundation.Timer) {
				if ticking { // a fire already due when it was stopped
					apply(ctrl.Tick(time.Now()))
				}
			})
		objc.Retain(&ticker)
		addToTimerModes(ticker) // the run loop holds it too; never invalidated
	}
	if on {
		ticker.SetFireDate(foundation.Date_Now())
	} else {
		ticker.SetFireDate(foundation.Date_DistantFuture())
	}
}

// addToTimerModes schedules t in timerModes, by name: it keeps firing
// while the status menu is open. Never
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
