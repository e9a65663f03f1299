on run argv
	set wanted to item 1 of argv
	if application id "com.googlecode.iterm2" is not running then return "notrunning"
	tell application id "com.googlecode.iterm2"
		repeat with w in windows
			repeat with t in tabs of w
				repeat with s in sessions of t
					if unique ID of s is wanted then
						return "ok" & linefeed & (rows of s) & linefeed & (name of s) & linefeed & (contents of s)
					end if
				end repeat
			end repeat
		end repeat
	end tell
	return "notfound"
end run
