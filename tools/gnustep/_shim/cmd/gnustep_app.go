//go:build gnustep

// The GNUstep harness's category on NSApplication (gnustep_app.m) and its
// main-thread probe; build.sh copies both files into the scratch copy of
// cmd/mew.

package main

import "C"

import (
	"os"
	"time"

	"github.com/progrium/darwinkit/macos/appkit"
)

// MEW_GNUSTEP_OFFMAIN_PROBE=1 sends one AppKit message from a goroutine
// after a second: the objc.Call guard must end the run (exit 70).
// TestGNUstepMainThreadCheck uses it to show the check works.
func init() {
	if os.Getenv("MEW_GNUSTEP_OFFMAIN_PROBE") == "" {
		return
	}
	go func() {
		time.Sleep(time.Second)
		appkit.Screen_MainScreen()
	}()
}
