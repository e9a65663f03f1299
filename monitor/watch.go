package monitor

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Tunables of Watch.
const (
	// coalesce gathers the burst of events one write makes (create, write,
	// rename) into one pass; small next to the 100 ms latency goal.
	coalesce = 5 * time.Millisecond
	// busyCoalesce is the wait when the previous pass was less than
	// busyWindow ago: under a stream of changes (hundreds of sessions) one
	// pass takes in all that came meanwhile, and a lone change still shows
	// within coalesce.
	busyCoalesce = 40 * time.Millisecond
	busyWindow   = 100 * time.Millisecond
	// tick re-checks liveness (a process can die without touching a file)
	// and re-lists the directories (a missed event must not hide a file);
	// slowTick (exits.go) replaces it where exits come by event.
	tick = time.Second
)

// Update is one pass of Watch.
type Update struct {
	Sessions []session.Shown
	Errors   []error
	// Records are the merged records behind Sessions (by id), for jumps
	// and answers.
	Records []session.Record
}

// firstReports bounds how long Watch's first update waits for the
// sources' first reports (a tmux source attaching takes tens of ms).
const firstReports = time.Second

// Watch emits a snapshot at once (once every source has reported, within
// firstReports), then again whenever a source changes, and at least every
// second. Only what changed is re-read: the files fsnotify names, the
// observations a source sends. The channel closes after ctx ends, once
// every source has let go of what it holds outside this process (a caller
// that exits should drain it first). Directories that don't exist yet are
// watched for from their parent, so Claude Code's first run is noticed.
func Watch(ctx context.Context, o Options) (<-chan Update, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	storeDir := o.Store.Dir()
	dirs := []string{storeDir}
	watched := map[string]bool{}
	addWatches := func() {
		for _, d := range dirs {
			if watched[d] {
				continue
			}
			if fw.Add(d) == nil {
				watched[d] = true
				continue
			}
			// Not there yet: watch the nearest existing parent for it.
			for p := filepath.Dir(d); p != filepath.Dir(p); p = filepath.Dir(p) {
				if _, err := os.Stat(p); err == nil {
					if !watched[p] && fw.Add(p) == nil {
						watched[p] = true
					}
					break
				}
			}
		}
	}
	addWatches()

	type sourceUpdate struct {
		name     string
		obs      []Observation
		problems []error
		err      error
	}
	sourceUpdates := make(chan sourceUpdate, len(o.Sources)+1)
	// The update channel closes only once every source has returned: a
	// source holds things outside this process (the tmux source a client
	// attached to the person's server) that must be let go before the
	// caller exits.
	var sourcesRunning sync.WaitGroup
	for _, src := range o.Sources {
		sourcesRunning.Add(1)
		go func() {
			ch := make(chan []Observation, 1)
			done := make(chan error, 1)
			go func() {
				defer sourcesRunning.Done()
				done <- src.Watch(ctx, ch)
			}()
			for {
				select {
				case obs := <-ch:
					u := sourceUpdate{name: src.Name(), obs: obs}
					if p, ok := src.(source.Partial); ok {
						u.problems = p.Problems()
					}
					select {
					case sourceUpdates <- u:
					case <-ctx.Done():
						return
					}
				case err := <-done:
					if err != nil && ctx.Err() == nil {
						select {
						case sourceUpdates <- sourceUpdate{name: src.Name(), err: err}:
						case <-ctx.Done():
						}
					}
					return
				}
			}
		}()
	}

	out := make(chan Update, 1)
	go func() {
		defer func() {
			sourcesRunning.Wait()
			close(out)
		}()
		defer fw.Close()
		w := newWorld()
		w.readAll(o)
		live := newLiveCache(o)
		exits := newExitEvents()
		defer exits.close()
		interval := exits.interval()
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		var last []session.Shown
		var lastErrs []string
		emit := func(force bool) bool {
			shown, recs, errs := w.compute(o, live)
			exits.follow(recs)
			if i := exits.interval(); i != interval {
				interval = i
				ticker.Reset(i)
			}
			shown, errs = o.withRemote(shown, errs)
			msgs := make([]string, len(errs))
			for i, e := range errs {
				msgs[i] = e.Error()
			}
			if !force && reflect.DeepEqual(shown, last) && slices.Equal(msgs, lastErrs) {
				return true
			}
			last, lastErrs = shown, msgs
			select {
			case out <- Update{Sessions: shown, Errors: errs, Records: recs}:
				return true
			case <-ctx.Done():
				return false
			}
		}
		take := func(u sourceUpdate) {
			if u.err != nil {
				w.obsErrs[u.name] = u.err
			} else {
				delete(w.obsErrs, u.name)
				w.obs[u.name] = u.obs
				w.problems[u.name] = u.problems
				w.obsGen++
			}
		}
		// The first update waits, at most firstReports, for each source's
		// first report: a reader that takes only the first list (`mew
		// status` reading a remote's feed) must get the screens too.
		reported := map[string]bool{}
		firstDeadline := time.After(firstReports)
	first:
		for len(reported) < len(o.Sources) {
			select {
			case u := <-sourceUpdates:
				take(u)
				reported[u.name] = true
			case <-firstDeadline:
				break first
			case <-ctx.Done():
				return
			}
		}
		if !emit(true) {
			return
		}
		var pending <-chan time.Time
		var lastPass time.Time
		wait := func() time.Duration {
			if time.Since(lastPass) < busyWindow {
				return busyCoalesce
			}
			return coalesce
		}
		dirty := false
		var remoteChanged <-chan struct{}
		if o.Remote != nil {
			remoteChanged = o.Remote.Changes()
		}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				dir, base := filepath.Dir(ev.Name), filepath.Base(ev.Name)
				switch {
				case slices.Contains(dirs, ev.Name) || aboveAny(ev.Name, dirs):
					// A watched-for directory (or one on the way to it)
					// appeared or went: watch what exists now, read it whole.
					// Without this, the next tick would, which may be
					// slowTick away.
					addWatches()
					w.readAll(o)
					dirty = true
				case dir == storeDir && isSessionFile(base):
					dirty = w.reloadStoreFile(o, base) || dirty
				}
				if dirty && pending == nil {
					pending = time.After(wait())
				}
			case <-fw.Errors:
				// Overflow or a vanished directory: read everything again.
				addWatches()
				w.readAll(o)
				dirty = true
				if pending == nil {
					pending = time.After(wait())
				}
			case u := <-sourceUpdates:
				take(u)
				dirty = true
				if pending == nil {
					pending = time.After(wait())
				}
			case pid := <-exits.exits():
				exits.exited(pid)
				live.forgetPid(pid)
				if pending == nil {
					pending = time.After(wait())
				}
			case <-remoteChanged:
				if pending == nil {
					pending = time.After(wait())
				}
			case <-pending:
				pending, dirty, lastPass = nil, false, time.Now()
				if !emit(false) {
					return
				}
			case <-ticker.C:
				addWatches()
				w.readAll(o) // stats every file; re-reads only the changed ones
				live.forget()
				if !emit(false) {
					return
				}
			}
		}
	}()
	return out, nil
}

// aboveAny reports whether path is a directory above one of dirs (a parent
// watched until they exist).
func aboveAny(path string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(d, path+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
