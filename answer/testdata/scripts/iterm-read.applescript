on run argv
	set wanted to item 1 of argv
	if application id "com.googlecode.iterm2" is not running then return "notrunning"
	tell application id "com.googlecode.iterm2"
		repeat with w in windows
			repeat with t in tabs of w
				repeat with s in sessions of t
					if unique ID of s is wanted then
						set c to missing value
						try
							set c to text of s
						end try
						if c is missing value then set c to contents of s
						return "ok" & linefeed & (rows of s) & linefeed & (name of s) & linefeed & c
					end if
				end repeat
			end repeat
		end repeat
	end tell
	return "notfound"
end run
