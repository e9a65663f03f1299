on run argv
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
