package terminal

import "github.com/mew-dev/mew/terminal/termid"

// The validators of terminal ids live in terminal/termid, pure, so the
// board can use them without linking the process runner; these are the same
// functions under the names the jump, answer and source code use.
var (
	ValidITermSessionID = termid.ValidITermSessionID
	ValidWarpURL        = termid.ValidWarpURL
	ValidZellijSession  = termid.ValidZellijSession
	ValidTty            = termid.ValidTty
	ValidITermSession   = termid.ValidITermSession
	ITermSession        = termid.ITermSession
	ValidTmuxPane       = termid.ValidTmuxPane
	ValidPaneNumber     = termid.ValidPaneNumber
	ValidBundleID       = termid.ValidBundleID
	ValidPath           = termid.ValidPath
	ValidSocket         = termid.ValidSocket
	ValidAppPath        = termid.ValidAppPath
	ValidKittyListen    = termid.ValidKittyListen
)
