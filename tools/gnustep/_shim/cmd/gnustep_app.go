//go:build gnustep

// The GNUstep harness's category on NSApplication (gnustep_app.m) and its
// main-thread probe; build.sh copies both files into the scratch copy of
// cmd/mew.

package main

import "C"

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	gcd "github.com/progrium/darwinkit/dispatch"
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/objc"
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

// MEW_GNUSTEP_REOPEN_ON_USR1=1: each SIGUSR1 sends the app delegate
// applicationShouldHandleReopen:hasVisibleWindows: on the main thread, as
// AppKit does when Mew.app is opened again while it runs. GNUstep never
// sends it (its NSApplication.h: "Not sent yet under GNUstep"), so
// TestGNUstepReopen sends it this way, to Mew's real delegate.
func init() {
	if os.Getenv("MEW_GNUSTEP_REOPEN_ON_USR1") == "" {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	go func() {
		for range ch {
			gcd.MainQueue().DispatchAsync(func() {
				objc.WithAutoreleasePool(func() {
					app := appkit.Application_SharedApplication()
					objc.Call[bool](app.Delegate(), objc.Sel("applicationShouldHandleReopen:hasVisibleWindows:"), app, false)
				})
			})
		}
	}()
}
