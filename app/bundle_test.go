package app

import "testing"

func TestBundleOf(t *testing.T) {
	for _, c := range []struct {
		exe, bundle string
		ok          bool
	}{
		{"/Applications/Mew.app/Contents/MacOS/mew", "/Applications/Mew.app", true},
		{"/Users/me/Downloads/Mew 2.app/Contents/MacOS/mew", "/Users/me/Downloads/Mew 2.app", true},
		{"/Applications/MEW.APP/Contents/MacOS/mew", "/Applications/MEW.APP", true},
		{"/opt/homebrew/bin/mew", "", false},
		{"/Applications/Mew.app/Contents/MacOS/sub/mew", "", false},
		{"/Applications/Mew.app/Contents/Resources/mew", "", false},
		{"/Applications/.app/Contents/MacOS/mew", "", false},
		{"/Applications/Mew.apps/Contents/MacOS/mew", "", false},
		{"Mew.app/Contents/MacOS/mew", "", false},
		{"/Applications/Mew.app/Contents/MacOS/../MacOS/mew", "/Applications/Mew.app", true},
		{"", "", false},
	} {
		b, ok := bundleOf(c.exe)
		if b != c.bundle || ok != c.ok {
			t.Errorf("BundleOf(%q) = %q, %v; want %q, %v", c.exe, b, ok, c.bundle, c.ok)
		}
	}
}

func TestNotificationsAvailable(t *testing.T) {
	in := "/Applications/Mew.app/Contents/MacOS/mew"
	if ok, why := notificationsAvailable(in, bundleID, "/Applications/Mew.app"); !ok || why != "" {
		t.Errorf("Mew.app: %v %q", ok, why)
	}
	for _, c := range []struct{ exe, id, registered string }{
		{"/opt/homebrew/bin/mew", "", ""},
		{"/opt/homebrew/bin/mew", bundleID, "/Applications/Mew.app"}, // claims the id without the layout
		{in, "", "/Applications/Mew.app"},                            // the layout without a bundle macOS knows
		{in, "com.other.App", "/Applications/Mew.app"},
		// bin/app/Mew.app straight after `make app`: LaunchServices knows
		// no Mew.app, or another copy; the center would raise.
		{"/src/mew/bin/app/Mew.app/Contents/MacOS/mew", bundleID, ""},
		{"/src/mew/bin/app/Mew.app/Contents/MacOS/mew", bundleID, "/Applications/Mew.app"},
	} {
		if ok, why := notificationsAvailable(c.exe, c.id, c.registered); ok || why == "" {
			t.Errorf("NotificationsAvailable(%q, %q, %q) = %v %q; want unavailable with a reason", c.exe, c.id, c.registered, ok, why)
		}
	}
	if _, why := notificationsAvailable("/src/mew/bin/app/Mew.app/Contents/MacOS/mew", bundleID, ""); why != "open Mew.app from the Finder once" {
		t.Errorf("unregistered bundle: %q", why)
	}
}
