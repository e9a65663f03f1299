package app

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/applescript"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/terminal"
)

// The answers are what osascript prints for each script (applescript.Model:
// an app's class joined to text prints as its name), not made up: the old
// iTerm2 script's `& tab &` inside the tell gave "GUIDtab/dev/ttys004".
func TestParseFocusPerTerminal(t *testing.T) {
	guid := "6C2A30B4-1F5B-4C5E-9D6A-0A1B2C3D4E5F"
	props := map[string]string{"unique id": guid, "tty": "/dev/ttys004"}
	for _, c := range []struct {
		bundle string
		want   board.Focus
	}{
		{board.BundleITerm2, board.Focus{App: board.BundleITerm2, ITermSession: guid, TTY: "/dev/ttys004"}},
		{board.BundleTerminal, board.Focus{App: board.BundleTerminal, TTY: "/dev/ttys004"}},
		{BundleGhostty, board.Focus{App: BundleGhostty, TTY: "/dev/ttys004"}},
	} {
		out, err := applescript.Model(focusScript(c.bundle), props)
		if err != nil {
			t.Fatalf("%s: %v", c.bundle, err)
		}
		if got := parseFocus(c.bundle, out); got.App != c.want.App || got.ITermSession != c.want.ITermSession || got.TTY != c.want.TTY {
			t.Errorf("%s %q: %+v, want %+v", c.bundle, out, got, c.want)
		}
		if p := applescript.Lint(focusScript(c.bundle)); len(p) > 0 {
			t.Errorf("%s: %v", c.bundle, p)
		}
	}
	for _, c := range []struct {
		bundle, out string
		want        board.Focus
	}{
		{board.BundleITerm2, "execution error: iTerm got an error", board.Focus{App: board.BundleITerm2}},
		{board.BundleTerminal, "/dev/../etc/passwd", board.Focus{App: board.BundleTerminal}},
		{"com.apple.Safari", "", board.Focus{App: "com.apple.Safari"}},
	} {
		if got := parseFocus(c.bundle, c.out); got.App != c.want.App || got.ITermSession != c.want.ITermSession || got.TTY != c.want.TTY {
			t.Errorf("%s %q: %+v, want %+v", c.bundle, c.out, got, c.want)
		}
	}
	if focusScript("com.apple.Safari") != "" {
		t.Error("a focus script for Safari")
	}
}

// No Apple Event to an app before a step the person started reached it:
// until a jump (or an answer) went through to iTerm2, the focus check is
// app only; after the jump, it asks iTerm2.
func TestFocusAsksOnlyAnAppAPersonsStepReached(t *testing.T) {
	var reached terminal.Reached
	if s := focusAsk(board.BundleITerm2, reached.Has); s != "" {
		t.Fatal("the focus check asks iTerm2 before any jump or answer reached it")
	}
	r := &jump.Runner{Exec: okExec{}, Reached: &reached}
	plan := jump.Plan{Host: "iTerm2", BundleID: board.BundleITerm2, Outer: []jump.Step{{
		Name: "iTerm2: select session", Argv: []string{terminal.OsascriptPath, "-", "x"}, ScriptName: "iterm-by-id",
		Want: "ok", Gives: jump.Pane, Asks: "iTerm2", Kind: jump.StepAppleScript,
	}}}
	r.Submit(func(context.Context) jump.Plan { return plan }, nil)
	r.Wait()
	if s := focusAsk(board.BundleITerm2, reached.Has); s != iTermFocusScript {
		t.Fatal("after the person's jump went through, the focus check still does not ask iTerm2")
	}
	if focusAsk(board.BundleTerminal, reached.Has) != "" {
		t.Fatal("Terminal was never reached")
	}
}

type okExec struct{}

func (okExec) Run(context.Context, jump.Step) (string, error) { return "ok", nil }

// The sinks and the ring decide with the front app of the update that is
// due: read when asked (on the main thread), not the app noted at the
// update before; a main thread that does not answer in time leaves the
// app read last.
func TestFrontAppIsReadForTheUpdateDue(t *testing.T) {
	front := "com.apple.Terminal" // noted at the previous update
	main := make(chan func(), 1)
	go func() {
		for f := range main {
			f()
		}
	}()
	defer close(main)
	onMain := func(f func()) { main <- f }
	front = "com.apple.Safari" // the person switched before this update
	if got := frontAppNow(onMain, func() string { return front }, "com.apple.Terminal", time.Minute); got != "com.apple.Safari" {
		t.Errorf("front app %q, want the one in front now", got)
	}
	busy := func(func()) {} // the main thread never runs it
	if got := frontAppNow(busy, func() string { return front }, "com.apple.Terminal", time.Millisecond); got != "com.apple.Terminal" {
		t.Errorf("busy main thread: %q", got)
	}
}
