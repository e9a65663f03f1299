package termid

import (
	"strings"
	"testing"
)

const guid = "6A3C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F"

func TestValidators(t *testing.T) {
	for _, c := range []struct {
		goos, tty string
		ok        bool
	}{
		{"darwin", "/dev/ttys003", true}, {"darwin", "/dev/tty5", true}, {"darwin", "/dev/pts/3", false},
		{"darwin", "/dev/ttys003 ", false}, {"darwin", "/dev/ttys", false}, {"linux", "/dev/pts/12", true},
		{"linux", "/dev/ttys003", false}, {"linux", "/dev/pts/../sda", false},
	} {
		if ValidTty(c.goos, c.tty) != c.ok {
			t.Errorf("ValidTty(%s, %q) != %v", c.goos, c.tty, c.ok)
		}
	}
	if ITermSession("w0t1p0:"+guid) != guid || ITermSession(guid) != "" || ITermSession("w0t0p0:"+guid+"x") != "" {
		t.Error("ITermSession")
	}
	for s, ok := range map[string]bool{"%0": true, "%123": true, "%": false, "5": false, "%5 ": false, "%5;x": false} {
		if ValidTmuxPane(s) != ok {
			t.Errorf("ValidTmuxPane(%q) != %v", s, ok)
		}
	}
	for s, ok := range map[string]bool{"/tmp/x": true, "/tmp/../x": false, "tmp/x": false, "/tmp/x\n": false, "": false, "/tmp/x/": false} {
		if ValidPath(s) != ok {
			t.Errorf("ValidPath(%q) != %v", s, ok)
		}
	}
	if ValidSocket("/" + strings.Repeat("a", 200)) {
		t.Error("overlong socket accepted")
	}
	for s, ok := range map[string]bool{"unix:/tmp/k": true, "unix:@kitty": true, "unix:@": false, "tcp:localhost:1": false, "unix:rel": false} {
		if ValidKittyListen(s) != ok {
			t.Errorf("ValidKittyListen(%q) != %v", s, ok)
		}
	}
	if !ValidITermSessionID("w0t1p0:"+guid) || ValidITermSessionID(guid) || ValidITermSessionID("w0t1p0:"+guid+"\n") {
		t.Error("ValidITermSessionID")
	}
	for s, ok := range map[string]bool{"com.apple.Terminal": true, "-n": false, "a..b": false, "x y": false, "": false} {
		if ValidBundleID(s) != ok {
			t.Errorf("ValidBundleID(%q) != %v", s, ok)
		}
	}
	for s, ok := range map[string]bool{"warp://session/7b1c": true, "warppreview://x": true, "warp://a/../b": false, "http://x": false, "warp://x y": false} {
		if ValidWarpURL(s) != ok {
			t.Errorf("ValidWarpURL(%q) != %v", s, ok)
		}
	}
	for s, ok := range map[string]bool{"dreamy-cat": true, "x --layout": false, "-x": false, "": false} {
		if ValidZellijSession(s) != ok {
			t.Errorf("ValidZellijSession(%q) != %v", s, ok)
		}
	}
	for s, ok := range map[string]bool{"7": true, "123456789": true, "1234567890": false, "7 ": false, "": false} {
		if ValidPaneNumber(s) != ok {
			t.Errorf("ValidPaneNumber(%q) != %v", s, ok)
		}
	}
}

// The hook links this package (through terminal, for Env): nothing of it may cost at start
// (the patterns compile on first use).
func TestPatternsCompileLazily(t *testing.T) {
	p := pattern{expr: `^a+$`}
	if p.re != nil {
		t.Fatal("compiled before use")
	}
	if !p.MatchString("aa") || p.MatchString("ab") || p.re == nil {
		t.Fatal("pattern")
	}
}
