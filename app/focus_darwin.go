//go:build darwin && cgo

package app

import (
	"context"
	"os/exec"
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
func noteFrontApp() {
	app := appkit.Workspace_SharedWorkspace().FrontmostApplication()
	if app.IsNil() {
		frontBundle.Store("")
		return
	}
	frontBundle.Store(app.BundleIdentifier())
}

// focusScriptTimeout bounds the Apple Event: a hung terminal must not
// hold an alert back for long.
const focusScriptTimeout = 2 * time.Second

// frontFocus reports what is in front: the frontmost app, its front tab
// where the terminal says, and tmux's clients (their active panes and
// ttys: the policy keeps the pane whose client's tab is in front). Any
// goroutine. It only reports; board.FocusedSessions decides.
func frontFocus(ctx context.Context) board.Focus {
	bundle, _ := frontBundle.Load().(string)
	f := board.Focus{App: bundle}
	if script := focusScript(bundle); script != "" {
		if osa, err := terminal.LookPath("osascript"); err == nil {
			sctx, cancel := context.WithTimeout(ctx, focusScriptTimeout)
			out, err := exec.CommandContext(sctx, osa, "-e", script).Output()
			cancel()
			if err == nil {
				f = parseFocus(bundle, string(out))
			}
		}
	}
	f.Panes = notify.TmuxFocus(ctx).Panes
	return f
}
