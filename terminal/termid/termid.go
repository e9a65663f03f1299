// Package termid holds the validators for the terminal ids Mew passes to
// commands (ttys, tmux panes, iTerm2 sessions, bundle ids, sockets, …). It
// is pure (strings in, a verdict out), so a pure package such as board can
// check an id without linking terminal's process runner; terminal keeps the
// same names for the callers that run commands.
package termid

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Every value a jump, an answer or a source hands to a command comes from
// a session record, a terminal's environment or another process: each is
// checked against the narrow shape it must have before it goes anywhere.
var (
	darwinTty   = pattern{expr: `^/dev/ttys?[0-9]+$`}
	linuxTty    = pattern{expr: `^/dev/pts/[0-9]+$`}
	itermGUID   = pattern{expr: `^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`}
	tmuxPane    = pattern{expr: `^%[0-9]{1,9}$`}
	smallNumber = pattern{expr: `^[0-9]{1,9}$`}
	bundleID    = pattern{expr: `^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$`}
	kittyName   = pattern{expr: `^@[A-Za-z0-9._-]{1,100}$`}
	itermID     = pattern{expr: `^w[0-9]{1,4}t[0-9]{1,4}p[0-9]{1,4}:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`}
	zellijName  = pattern{expr: `^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`}
	warpURL     = pattern{expr: `^warp(preview|dev|local)?://[A-Za-z0-9/_.:?=&%-]{1,400}$`}
)

// pattern is a regular expression compiled on first use. The hook links
// package terminal (for Env and DescribeAgent) and never validates: compiled
// at start, these cost every hook call over a millisecond and 12,000
// allocations (GODEBUG=inittrace=1).
type pattern struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// MatchString reports whether s matches the whole pattern.
func (p *pattern) MatchString(s string) bool {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re.MatchString(s)
}

// ValidITermSessionID reports whether s is a whole $ITERM_SESSION_ID:
// "w0t1p0:GUID" (window, tab, split and the session's GUID).
func ValidITermSessionID(s string) bool { return itermID.MatchString(s) }

// ValidWarpURL reports whether s is the tab link Warp gives its shells in
// $WARP_FOCUS_URL: a warp:// URL (or a preview or dev channel's) of plain
// characters, handed to open(1) as one argument.
func ValidWarpURL(s string) bool { return warpURL.MatchString(s) && !strings.Contains(s, "..") }

// ValidZellijSession reports whether s is a zellij session name Mew passes
// to `zellij --session` (what zellij generates, and plain names).
func ValidZellijSession(s string) bool { return zellijName.MatchString(s) }

// ValidTty reports whether s names a terminal device on goos.
func ValidTty(goos, s string) bool {
	if goos == "darwin" {
		return darwinTty.MatchString(s)
	}
	return linuxTty.MatchString(s)
}

// ValidITermSession reports whether s is an iTerm2 session GUID.
func ValidITermSession(s string) bool { return itermGUID.MatchString(s) }

// ITermSession is the session GUID in $ITERM_SESSION_ID ("w0t1p0:GUID"):
// the part after the last colon, or "" when that is not a GUID.
func ITermSession(env string) string {
	i := strings.LastIndexByte(env, ':')
	if i < 0 {
		return ""
	}
	if guid := env[i+1:]; ValidITermSession(guid) {
		return guid
	}
	return ""
}

// ValidTmuxPane reports whether s is a tmux pane id (%N).
func ValidTmuxPane(s string) bool { return tmuxPane.MatchString(s) }

// ValidPaneNumber reports whether s is a WezTerm pane id or a kitty window
// id: a small decimal number.
func ValidPaneNumber(s string) bool { return smallNumber.MatchString(s) }

// ValidBundleID reports whether s has the shape of a bundle identifier.
func ValidBundleID(s string) bool {
	return bundleID.MatchString(s) && !strings.Contains(s, "..")
}

// ValidPath reports whether s is a clean absolute path without control
// characters: what a path must be before it is passed to any command.
func ValidPath(s string) bool {
	if s == "" || s[0] != '/' || len(s) > 4096 || filepath.Clean(s) != s {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// maxSocketPath is the shortest sun_path of the systems Mew runs on (104
// bytes on macOS, counting the NUL).
const maxSocketPath = 103

// ValidSocket reports whether s can be a Unix socket path.
func ValidSocket(s string) bool { return ValidPath(s) && len(s) <= maxSocketPath }

// ValidAppPath reports whether s is a path to an application bundle.
func ValidAppPath(s string) bool { return ValidPath(s) && strings.HasSuffix(s, ".app") }

// ValidKittyListen reports whether s is a kitty remote-control address Mew
// will use: a Unix socket path or an abstract socket name.
func ValidKittyListen(s string) bool {
	rest, ok := strings.CutPrefix(s, "unix:")
	if !ok {
		return false
	}
	return ValidSocket(rest) || kittyName.MatchString(rest)
}
