package watchfs

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Folders follows folders that may not exist yet with a file watcher
// (fsnotify's Add): a missing folder's creation is an event in its nearest
// existing ancestor, so that ancestor is watched until the folder is there.
//
// The home folder and everything above it are never watched: a person's
// home changes all day (shell histories, editors' swap files), and each of
// those events would wake a source for nothing. A folder whose nearest
// existing ancestor is the home folder or above is looked for again on the
// source's periodic pass instead (call Follow again then). This is the one
// place that rule is kept.
type Folders struct {
	Add     func(dir string) error // the watcher's Add
	Watched map[string]bool        // what was added; made on first use
	// Home is the folder never watched, nor anything above it; empty is
	// $HOME (os.UserHomeDir), read on each Follow.
	Home string
	// Within, when set, is the highest folder watched: a source's own
	// tree (Codex's CODEX_HOME and its parent), nothing above it.
	Within string
}

// Follow watches each of dirs, or while one is missing, its nearest
// existing ancestor, unless that is the home folder or above (Watchable). A folder made below a watched
// ancestor before its watch began sends no event: the walk is redone until
// it adds no watch, so the caller's read after Follow sees what came. It
// reports whether it added a watch.
func (f *Folders) Follow(dirs ...string) bool {
	if f.Watched == nil {
		f.Watched = map[string]bool{}
	}
	home := f.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	added := false
	for range 16 { // each round reaches at least one level further down
		more := false
		for _, d := range dirs {
			p := nearest(filepath.Clean(d))
			if p == "" || !Watchable(p, home) || f.Watched[p] || f.Within != "" && !under(p, f.Within) {
				continue
			}
			if f.Add(p) == nil {
				f.Watched[p], more = true, true
			}
		}
		if !more {
			break
		}
		added = true
	}
	return added
}

// nearest is dir if it exists, else its nearest existing ancestor; "" when
// not even the root answers.
func nearest(dir string) string {
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}

// Watchable says whether dir may be watched: not the root, not the home
// folder, not a folder above it. A folder elsewhere (/tmp, a CODEX_HOME
// outside the home folder) is fine.
func Watchable(dir, home string) bool {
	dir = filepath.Clean(dir)
	if filepath.Dir(dir) == dir {
		return false
	}
	if home == "" {
		return true
	}
	home = filepath.Clean(home)
	return dir != home && !strings.HasPrefix(home, dir+string(filepath.Separator))
}

func under(dir, top string) bool {
	dir, top = filepath.Clean(dir), filepath.Clean(top)
	return dir == top || strings.HasPrefix(dir, top+string(filepath.Separator))
}

// Watcher is a file watcher (fsnotify) with the folders it follows.
type Watcher struct {
	*fsnotify.Watcher
	Dirs Folders
}

// NewWatcher starts a watcher whose Dirs add their watches to it; Close it
// when done.
func NewWatcher() (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &Watcher{Watcher: fw, Dirs: Folders{Add: fw.Add}}, nil
}
