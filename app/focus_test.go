package app

import (
	"testing"

	"github.com/mew-dev/mew/board"
)

func TestParseFocusPerTerminal(t *testing.T) {
	guid := "6C2A30B4-1F5B-4C5E-9D6A-0A1B2C3D4E5F"
	cases := []struct {
		bundle, out string
		want        board.Focus
	}{
		{board.BundleITerm2, guid + "\t/dev/ttys004\n", board.Focus{App: board.BundleITerm2, ITermSession: guid, TTY: "/dev/ttys004"}},
		{board.BundleITerm2, "execution error: iTerm got an error", board.Focus{App: board.BundleITerm2}},
		{board.BundleTerminal, "/dev/ttys007\n", board.Focus{App: board.BundleTerminal, TTY: "/dev/ttys007"}},
		{board.BundleTerminal, "/dev/../etc/passwd", board.Focus{App: board.BundleTerminal}},
		{"com.apple.Safari", "", board.Focus{App: "com.apple.Safari"}},
	}
	for _, c := range cases {
		if got := parseFocus(c.bundle, c.out); got.App != c.want.App || got.ITermSession != c.want.ITermSession || got.TTY != c.want.TTY {
			t.Errorf("%s %q: %+v, want %+v", c.bundle, c.out, got, c.want)
		}
	}
	if focusScript(board.BundleITerm2) == "" || focusScript(board.BundleTerminal) == "" || focusScript("com.apple.Safari") != "" {
		t.Error("the focus scripts")
	}
}
