package tmux

import (
	"path/filepath"
	"strings"
)

// The commands people put before an agent on its command line: they run
// it (exec it, or fork and wait for it), so the agent is the first word
// after them and their options. `time` is also a shell keyword.
var launchers = map[string]bool{"exec": true, "command": true, "env": true, "nice": true, "nohup": true, "time": true}

// launcherOptsWithValue are the options of env, nice and time that take
// the next word as their value (`env -u HOME`, `nice -n 5`, `time -o f`).
var launcherOptsWithValue = map[string]map[string]bool{
	"env":  {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
	"nice": {"-n": true, "--adjustment": true},
	"time": {"-f": true, "--format": true, "-o": true, "--output": true},
}

// pastLaunchers drops variable assignments and launchers, with their
// options, from the front of a command's words: what is left starts with
// the program they run.
func pastLaunchers(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		if isAssignment(w) {
			words = words[1:]
			continue
		}
		name := filepath.Base(w)
		if !launchers[name] {
			return words
		}
		words = words[1:]
		withValue := launcherOptsWithValue[name]
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			opt := words[0]
			words = words[1:]
			if opt == "--" {
				break
			}
			if withValue[opt] && len(words) > 0 {
				words = words[1:]
			}
		}
	}
	return words
}

// isAssignment reports whether w is NAME=value (a shell assignment, or
// env's).
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, r := range w[:i] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || j > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isLauncher reports whether a process of that name runs another program
// and may stay in front while it does (`/usr/bin/time amp` forks).
func isLauncher(name string) bool { return launchers[filepath.Base(name)] }
