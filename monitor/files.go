package monitor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// readAll lists the store and re-reads what changed (rescanStore).
func (w *world) readAll(o Options) { w.rescanStore(o) }

// rescanStore lists the store and re-reads the files whose stamp changed
// since they were read (all of them the first time).
func (w *world) rescanStore(o Options) {
	entries, err := os.ReadDir(o.Store.Dir())
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.loadErrs[""] = store.LoadError{File: o.Store.Dir(), Err: err}
		}
		entries = nil
	} else {
		delete(w.loadErrs, "")
	}
	present := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !isSessionFile(e.Name()) || e.IsDir() {
			continue
		}
		present[e.Name()] = true
		w.reloadStoreFile(o, e.Name())
	}
	for name := range w.files {
		if !present[name] {
			w.dropStoreFile(name)
		}
	}
	for name := range w.loadErrs {
		if name != "" && !present[name] {
			delete(w.loadErrs, name)
		}
	}
}

// reloadStoreFile re-reads one session file if it changed since it was
// read; it reports whether anything changed.
func (w *world) reloadStoreFile(o Options, name string) bool {
	id := strings.TrimSuffix(name, ".json")
	fi, err := os.Stat(filepath.Join(o.Store.Dir(), name))
	if errors.Is(err, fs.ErrNotExist) {
		return w.dropStoreFile(name)
	}
	if err == nil {
		if old, ok := w.files[name]; ok && old == watchfs.StampOf(fi) {
			return false
		}
	}
	if !session.ValidID(id) {
		w.loadErrs[name] = store.LoadError{File: name, Err: store.ErrInvalidID}
		return true
	}
	rec, err := o.Store.Load(id)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return w.dropStoreFile(name)
		}
		w.loadErrs[name] = store.LoadError{File: name, Err: err}
		delete(w.recs, id)
		delete(w.files, name)
		return true
	}
	delete(w.loadErrs, name)
	if fi != nil {
		w.files[name] = watchfs.StampOf(fi)
	}
	old, had := w.recs[id]
	w.recs[id] = rec
	w.touch(id)
	if (had && screenOnly(old)) || screenOnly(rec) {
		w.joinedChanged()
	}
	return true
}

func (w *world) dropStoreFile(name string) bool {
	if old, ok := w.recs[strings.TrimSuffix(name, ".json")]; ok && screenOnly(old) {
		w.joinedChanged()
	}
	_, had := w.files[name]
	_, bad := w.loadErrs[name]
	delete(w.files, name)
	delete(w.loadErrs, name)
	delete(w.recs, strings.TrimSuffix(name, ".json"))
	w.touch(strings.TrimSuffix(name, ".json"))
	return had || bad
}

// isSessionFile: <id>.json, not a lock, swap, temporary or set-aside file.
func isSessionFile(name string) bool {
	return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
}
