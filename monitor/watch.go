package monitor

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/session"
)

// Tunables of Watch.
const (
	// coalesce gathers the burst of events one write makes (create, write,
	// rename) into one pass; small next to the 100 ms latency goal.
	coalesce = 5 * time.Millisecond
	// tick re-reads everything even without file events: a process can die
	// without touching a file, and ages move on.
	tick = time.Second
)

// Update is one pass of Watch.
type Update struct {
	Sessions []session.Shown
	Errors   []error
}

// Watch emits a snapshot at once, then again whenever the session store or
// the registry changes, and at least every second. The channel closes when
// ctx ends. Directories that don't exist yet are watched for from their
// parent, so Claude Code's first run is noticed.
func Watch(ctx context.Context, o Options) (<-chan Update, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	dirs := []string{o.Store.Dir()}
	if o.RegistryDir != "" {
		dirs = append(dirs, o.RegistryDir)
	}
	watched := map[string]bool{}
	addWatches := func() {
		for _, d := range dirs {
			if watched[d] {
				continue
			}
			if w.Add(d) == nil {
				watched[d] = true
				continue
			}
			// Not there yet: watch the nearest existing parent for it.
			for p := filepath.Dir(d); p != filepath.Dir(p); p = filepath.Dir(p) {
				if _, err := os.Stat(p); err == nil {
					if !watched[p] && w.Add(p) == nil {
						watched[p] = true
					}
					break
				}
			}
		}
	}
	addWatches()

	out := make(chan Update, 1)
	go func() {
		defer close(out)
		defer w.Close()
		ticker := time.NewTicker(tick)
		defer ticker.Stop()
		var last []session.Shown
		var lastErrs []string
		emit := func(force bool) bool {
			shown, errs := Snapshot(o)
			msgs := make([]string, len(errs))
			for i, e := range errs {
				msgs[i] = e.Error()
			}
			if !force && reflect.DeepEqual(shown, last) && slices.Equal(msgs, lastErrs) {
				return true
			}
			last, lastErrs = shown, msgs
			select {
			case out <- Update{Sessions: shown, Errors: errs}:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if !emit(true) {
			return
		}
		var pending <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !relevant(ev.Name, dirs) {
					continue
				}
				if ev.Op&fsnotify.Create != 0 {
					addWatches() // a watched-for directory may have appeared
				}
				if pending == nil {
					pending = time.After(coalesce)
				}
			case <-w.Errors:
				// Overflow or a vanished directory: the next pass re-reads all.
				addWatches()
			case <-pending:
				pending = nil
				if !emit(false) {
					return
				}
			case <-ticker.C:
				addWatches()
				if !emit(false) {
					return
				}
			}
		}
	}()
	return out, nil
}

// relevant keeps events in (or of) the watched directories, minus the lock,
// swap and temporary files the store writes: they change on every update
// and say nothing new.
func relevant(name string, dirs []string) bool {
	if slices.Contains(dirs, name) {
		return true
	}
	if !slices.Contains(dirs, filepath.Dir(name)) {
		return false
	}
	base := filepath.Base(name)
	return !strings.HasPrefix(base, ".") && !strings.HasSuffix(base, ".lock")
}
