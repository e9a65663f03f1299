on run argv
	set wanted to item 1 of argv
	set typed to item 2 of argv
	if application id "com.googlecode.iterm2" is not running then return "notrunning"
	tell application id "com.googlecode.iterm2"
		repeat with w in windows
			repeat with t in tabs of w
				repeat with s in sessions of t
					if unique ID of s is wanted then
						tell s to write text typed newline no
						return "ok"
					end if
				end repeat
			end repeat
		end repeat
	end tell
	return "notfound"
end run
