package source

import (
	"os"
	"path/filepath"
	"strings"
)

// WatchFor is the folder to watch so that dir, or its appearing, is seen:
// dir itself when it exists, else its nearest existing ancestor that is
// not above root (the agent's own config folder: ~/.codex, ~/.claude,
// $MEW_HOME). Never a folder at or above home: on macOS fsnotify is
// kqueue, which opens every entry of a watched folder, and opening
// ~/Desktop, ~/Documents or ~/Downloads that way shows the person privacy
// prompts (and costs a descriptor per entry). "" when there is no such
// folder yet: the caller looks again on its periodic safety pass.
func WatchFor(dir, root, home string) string {
	dir, root = filepath.Clean(dir), filepath.Clean(root)
	for p := dir; ; p = filepath.Dir(p) {
		if home != "" && AtOrAbove(p, home) {
			return ""
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if p == root || !AtOrAbove(root, p) || filepath.Dir(p) == p {
			return ""
		}
	}
}

// AtOrAbove reports whether folder p is dir or one of its ancestors.
func AtOrAbove(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	if p == dir {
		return true
	}
	if !strings.HasSuffix(p, string(filepath.Separator)) {
		p += string(filepath.Separator)
	}
	return strings.HasPrefix(dir, p)
}

// HomeDir is the home folder WatchFor keeps away from ("" when unknown).
func HomeDir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Clean(h)
}
