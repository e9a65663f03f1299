on run argv
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
