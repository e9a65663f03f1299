//go:build darwin && cgo

package app

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/progrium/darwinkit/macos/appkit"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/terminal"
)

// frontBundle is the frontmost app's bundle id, read on the main thread
// at every monitor update (AppKit only there) for the alert goroutines.
var frontBundle atomic.Value

// noteFrontApp reads the frontmost app; main thread.
func noteFrontApp() { frontBundle.Store(readFrontApp()) }

// readFrontApp is the frontmost app's bundle id; main thread.
func readFrontApp() string {
	app := appkit.Workspace_SharedWorkspace().FrontmostApplication()
	if app.IsNil() {
		return ""
	}
	return app.BundleIdentifier()
}

// focusScriptTimeout bounds the Apple Event: a hung terminal must not
// hold an alert back for long.
const focusScriptTimeout = 2 * time.Second

// frontFocus reports what is in front: the frontmost app, its front tab
// where the terminal says and a step the person started reached it
// (focusAsk: no unasked Automation prompt), and tmux's clients (their
// active panes and ttys: the policy keeps the pane whose client's tab is
// in front). Any goroutine. It only reports; board.FocusedSessions
// decides.
func frontFocus(ctx context.Context) board.Focus {
	last, _ := frontBundle.Load().(string)
	bundle := frontAppNow(mainAsync, readFrontApp, last, frontAppWait)
	frontBundle.Store(bundle)
	f := board.Focus{App: bundle}
	if script := focusAsk(bundle, terminal.AppleEvents.Has); script != "" {
		sctx, cancel := context.WithTimeout(ctx, focusScriptTimeout)
		// The script on stdin (it has several lines), the locale forced.
		out, err := terminal.RunProcess(sctx, []string{terminal.OsascriptPath, "-"}, script, terminal.LocaleEnv())
		cancel()
		if err == nil {
			f = parseFocus(bundle, out)
		}
	}
	f.Panes = notify.TmuxFocus(ctx).Panes
	return f
}
