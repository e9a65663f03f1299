on run argv
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
