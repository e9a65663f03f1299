package gnustep_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// panelMargin is app/geometry.go's: the panel's gap to the visible
// frame's top and right edges.
const panelMargin = 8

// TestGNUstepReopen: Mew.app opened again while it runs shows the panel,
// even with no sessions (app/firstlaunch.go's onReopen), through the real
// delegate's applicationShouldHandleReopen:hasVisibleWindows:. GNUstep
// never sends that message (its NSApplication.h: "Not sent yet under
// GNUstep"; no LaunchServices to turn a second open into it), so the
// harness's shim sends it on SIGUSR1, on the main thread, as AppKit
// would (_shim/cmd/gnustep_app.go).
//
// The panel goes on the screen of the status item's window (panelScreen:
// the button's window's screen, never mainScreen, which follows the key
// window), at the top right of that screen's visible frame. Xvfb has one
// 1280×800 screen with no menu bar or dock, so the frame is exact: 8
// pixels from the top and the right edge.
func TestGNUstepReopen(t *testing.T) {
	h := newHarness(t)
	h.env = append(h.env, "MEW_GNUSTEP_REOPEN_ON_USR1=1")
	h.start()
	if _, ok := h.panelWindow(); ok {
		t.Fatal("the panel shows with no sessions before the reopen")
	}
	if err := h.app.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	var pw window
	h.waitFor("the reopen to show the panel", func() bool {
		var ok bool
		pw, ok = h.panelWindow()
		return ok
	})
	if want := 1280 - panelMargin - panelW; pw.x != want || pw.y != panelMargin {
		t.Errorf("the panel is at %d,%d, want %d,%d (the top right of the status item's screen, %d from its edges)",
			pw.x, pw.y, want, panelMargin, panelMargin)
	}
	h.waitFor("the guard's counts to include the placement", func() bool {
		return h.sent("NSPanel setFrame:display:") > 0
	})
	if h.sent("NSButton window") == 0 || h.sent("NSWindow screen") == 0 {
		t.Errorf("the panel was placed without asking the status item's window for its screen (NSButton window: %d, NSWindow screen: %d)",
			h.sent("NSButton window"), h.sent("NSWindow screen"))
	}
	if n := h.sent("NSScreen +mainScreen"); n != 0 {
		t.Errorf("Mew asked NSScreen for mainScreen %d times: the panel must follow the status item's screen, not the key window's", n)
	}
	checkQuiet(t, h)
}

// bannerClearance is app/geometry.go's: the strip at the top right where
// macOS shows banners.
const bannerClearance = 88

// TestGNUstepBannerOffset: with Mew's banners on, the panel is placed
// below the strip where they show (belowBanners), so a banner does not
// cover the rows that need the person; with them off (TestGNUstepReopen)
// it is 8 pixels from the top. GNUstep has no UserNotifications: the
// harness counts banners as authorized (MEW_GNUSTEP_BANNERS,
// app/banners_gnustep.go) and nothing is posted.
func TestGNUstepBannerOffset(t *testing.T) {
	h := newHarness(t)
	h.env = append(h.env, "MEW_GNUSTEP_BANNERS=1")
	if err := os.WriteFile(filepath.Join(h.mewHome, "app.json"), []byte(`{"sounds":false,"notifications":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.events("gs-b", "/src/deploy-bot", "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
	var pw window
	h.waitFor("the panel to show", func() bool {
		var ok bool
		pw, ok = h.panelWindow()
		return ok
	})
	if want := 1280 - panelMargin - panelW; pw.x != want || pw.y != panelMargin+bannerClearance {
		t.Errorf("with banners on the panel is at %d,%d, want %d,%d (below the banners' %d-pixel strip)",
			pw.x, pw.y, want, panelMargin+bannerClearance, bannerClearance)
	}
	checkQuiet(t, h)
}
