package app

import (
	"path/filepath"
	"strings"
)

// bundleOf returns the .app bundle an executable runs from: exe must be
// directly in <name>.app/Contents/MacOS/. Pass the path with symlinks
// resolved: Homebrew links mew onto the PATH, and that link runs outside
// any bundle as far as macOS is concerned.
func bundleOf(exe string) (bundle string, ok bool) {
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

// notificationsAvailable decides whether UNUserNotificationCenter may be
// used: only in a process that macOS sees as Mew.app, since the center
// raises an exception (a crash) in a process without a bundle, and in one
// whose bundle LaunchServices does not know (bin/app/Mew.app run straight
// after `make app`, before anything registered it). All signs must agree:
// the executable sits in a .app, the main bundle's identifier is Mew's, and
// LaunchServices has that bundle registered for Mew's identifier
// (registered: the path NSWorkspace gives for the identifier, "" for none).
func notificationsAvailable(exeResolved, mainBundleID, registered string) (ok bool, why string) {
	bundle, in := bundleOf(exeResolved)
	if !in || mainBundleID != bundleID {
		return false, "needs Mew.app"
	}
	if registered == "" || filepath.Clean(registered) != bundle {
		return false, "open Mew.app from the Finder once"
	}
	return true, ""
}
