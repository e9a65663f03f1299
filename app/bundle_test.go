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
		b, ok := BundleOf(c.exe)
		if b != c.bundle || ok != c.ok {
			t.Errorf("BundleOf(%q) = %q, %v; want %q, %v", c.exe, b, ok, c.bundle, c.ok)
		}
	}
}

func TestNotificationsAvailable(t *testing.T) {
	in := "/Applications/Mew.app/Contents/MacOS/mew"
	if ok, why := NotificationsAvailable(in, BundleID); !ok || why != "" {
		t.Errorf("Mew.app: %v %q", ok, why)
	}
	for _, c := range []struct{ exe, id string }{
		{"/opt/homebrew/bin/mew", ""},
		{"/opt/homebrew/bin/mew", BundleID}, // claims the id without the layout
		{in, ""},                            // the layout without a bundle macOS knows
		{in, "com.other.App"},
	} {
		if ok, why := NotificationsAvailable(c.exe, c.id); ok || why == "" {
			t.Errorf("NotificationsAvailable(%q, %q) = %v %q; want unavailable with a reason", c.exe, c.id, ok, why)
		}
	}
}
