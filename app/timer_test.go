package app

import (
	"slices"
	"testing"
)

func TestTimerModesAreNamedModesNotCommonModes(t *testing.T) {
	// kCFRunLoopCommonModes is recognised by pointer identity: a new
	// NSString with that text is an ordinary mode that never runs.
	if slices.Contains(timerModes, "kCFRunLoopCommonModes") {
		t.Fatal("the timer must not be added to common modes by name")
	}
	for _, m := range []string{"kCFRunLoopDefaultMode", "NSEventTrackingRunLoopMode", "NSModalPanelRunLoopMode"} {
		if !slices.Contains(timerModes, m) {
			t.Errorf("the timer does not run in %s", m)
		}
	}
}
