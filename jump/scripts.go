package jump

// The AppleScript programs a plan can run. They are constants: every value
// (a tty, a session id, a folder) reaches them as `argv`, passed to
// `osascript -` as separate arguments, and is never spliced into script
// text. Each prints "ok" when it focused its target, or a word saying why
// not; an application that is not running is never launched by them.

// scriptTerminalTab selects the Terminal.app tab whose tty is item 1 of
// argv, raises its window and activates Terminal.
const scriptTerminalTab = `on run argv
	set wanted to item 1 of argv
	if application id "com.apple.Terminal" is not running then return "notrunning"
	tell application id "com.apple.Terminal"
		repeat with w in windows
			repeat with t in tabs of w
				if tty of t is wanted then
					set selected tab of w to t
					try
						if miniaturized of w then set miniaturized of w to false
					end try
					set index of w to 1
					activate
					return "ok"
				end if
			end repeat
		end repeat
	end tell
	return "notfound"
end run
`

// scriptITermByID selects the iTerm2 session (split pane) whose unique ID is
// item 1 of argv, with its tab and window.
const scriptITermByID = `on run argv
	set wanted to item 1 of argv
	if application id "com.googlecode.iterm2" is not running then return "notrunning"
	tell application id "com.googlecode.iterm2"
		repeat with w in windows
			repeat with t in tabs of w
				repeat with s in sessions of t
					if unique ID of s is wanted then
						select w
						select t
						select s
						activate
						return "ok"
					end if
				end repeat
			end repeat
		end repeat
	end tell
	return "notfound"
end run
`

// scriptITermByTty is scriptITermByID matching the session's tty instead.
const scriptITermByTty = `on run argv
	set wanted to item 1 of argv
	if application id "com.googlecode.iterm2" is not running then return "notrunning"
	tell application id "com.googlecode.iterm2"
		repeat with w in windows
			repeat with t in tabs of w
				repeat with s in sessions of t
					if tty of s is wanted then
						select w
						select t
						select s
						activate
						return "ok"
					end if
				end repeat
			end repeat
		end repeat
	end tell
	return "notfound"
end run
`

// scriptGhosttyByTty focuses the Ghostty terminal (split) whose tty is item
// 1 of argv. The terminal's tty property is newer than Ghostty 1.3.1 (it is
// on Ghostty's main branch, not in a release yet): on older versions this
// script fails and the plan falls back to the working directory.
const scriptGhosttyByTty = `on run argv
	set wanted to item 1 of argv
	if application id "com.mitchellh.ghostty" is not running then return "notrunning"
	tell application id "com.mitchellh.ghostty"
		repeat with t in terminals
			if tty of t is wanted then
				focus t
				activate
				return "ok"
			end if
		end repeat
	end tell
	return "notfound"
end run
`

// scriptGhosttyByCwd focuses the one Ghostty terminal whose working
// directory is item 1 of argv (Ghostty 1.3+). Two or more matches are
// ambiguous: it focuses none of them rather than guess.
const scriptGhosttyByCwd = `on run argv
	set wanted to item 1 of argv
	if application id "com.mitchellh.ghostty" is not running then return "notrunning"
	tell application id "com.mitchellh.ghostty"
		set matches to {}
		repeat with t in terminals
			if working directory of t is wanted then set end of matches to contents of t
		end repeat
		if (count of matches) is 0 then return "notfound"
		if (count of matches) > 1 then return "ambiguous"
		focus (item 1 of matches)
		activate
		return "ok"
	end tell
end run
`

// Scripts lists every script a plan may use, by name (for tests and for
// the dry-run output).
var Scripts = map[string]string{
	"terminal-tab":   scriptTerminalTab,
	"iterm-by-id":    scriptITermByID,
	"iterm-by-tty":   scriptITermByTty,
	"ghostty-by-tty": scriptGhosttyByTty,
	"ghostty-by-cwd": scriptGhosttyByCwd,
}
