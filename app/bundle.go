package app

import (
	"path/filepath"
	"strings"
)

// BundleOf returns the .app bundle an executable runs from: exe must be
// directly in <name>.app/Contents/MacOS/. Pass the path with symlinks
// resolved: Homebrew links mew onto the PATH, and that link runs outside
// any bundle as far as macOS is concerned.
func BundleOf(exe string) (bundle string, ok bool) {
	if !filepath.IsAbs(exe) {
		return "", false
	}
	exe = filepath.Clean(exe)
	macOS := filepath.Dir(exe)
	contents := filepath.Dir(macOS)
	app := filepath.Dir(contents)
	name := filepath.Base(app)
	if filepath.Base(macOS) != "MacOS" || filepath.Base(contents) != "Contents" ||
		len(name) <= len(".app") || !strings.EqualFold(filepath.Ext(name), ".app") {
		return "", false
	}
	return app, true
}

// NotificationsAvailable decides whether UNUserNotificationCenter may be
// used: only in a process that macOS sees as Mew.app, since the center
// raises an exception (a crash) in a process without a bundle. Both
// signs must agree: the executable sits in a .app, and the main bundle's
// identifier is Mew's.
func NotificationsAvailable(exeResolved, mainBundleID string) (ok bool, why string) {
	if _, in := BundleOf(exeResolved); !in {
		return false, "needs Mew.app"
	}
	if mainBundleID != BundleID {
		return false, "needs Mew.app"
	}
	return true, ""
}
