package jump

import "github.com/mew-dev/mew/terminal"

// Validators that moved to package terminal, kept only while source/remote
// (being split into jump/, answer/ and install/) still calls them here.
// New code calls terminal's.

// ValidTmuxPane is terminal.ValidTmuxPane.
//
// Deprecated: use terminal.ValidTmuxPane.
func ValidTmuxPane(s string) bool { return terminal.ValidTmuxPane(s) }

// ValidPath is terminal.ValidPath.
//
// Deprecated: use terminal.ValidPath.
func ValidPath(s string) bool { return terminal.ValidPath(s) }
