package monitor

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/resident"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/monitor/combine"
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
	// A change that makes a session need the person (urgent) waits for
	// neither: it is shown at once (Claude Code's PermissionRequest comes
	// a few ms after its PreToolUse, well within busyWindow).
	busyCoalesce = 40 * time.Millisecond
	busyWindow   = 100 * time.Millisecond
	// tick re-checks liveness (a process can die without touching a file)
	// and re-lists the store (a missed event must not hide a file);
	// slowTick (exits.go) replaces it where exits come by event.
	tick = time.Second
)

// Update is one pass of Watch. Its lists and their entries are shared
// with the updates before and after it (a pass replaces only what changed:
// hundreds of sessions, tens of changes a second), so they are read-only:
// a consumer that wants to change one copies it (Values). An entry that is
// the same pointer as in an earlier update is unchanged since.
type Update struct {
	Sessions []*session.Shown
	Errors   []error
	// Records are the merged records behind Sessions (by id), for jumps
	// and answers.
	Records []*session.Record
}

// dropAgainAfter is when, after the first update, what start-up alone
// touched leaves the resident set a second time (resident.DropStartPages).
const dropAgainAfter = 5 * time.Second

// While a watcher is idle (at most idlePasses passes in an idleCheck), the
// collector keeps the heap smaller (idleGCPercent, for GOGC's 100): a
// watcher runs all day, mostly idle, and collects rarely then; busy (a
// pass for each of tens of changes a second) it goes back to 100, as a
// smaller heap would cost a collection every few passes. A GOGC in the
// environment is kept as it is.
const (
	idleCheck     = 5 * time.Second
	idlePasses    = 5
	idleGCPercent = 25
)

// collectForIdle sets the collector for the last idleCheck's passes.
func (wt *watcher) collectForIdle() {
	idle := wt.passes <= idlePasses
	wt.passes = 0
	if idle == wt.idleGC || os.Getenv("GOGC") != "" {
		return
	}
	wt.idleGC = idle
	if idle {
		debug.SetGCPercent(idleGCPercent)
	} else {
		debug.SetGCPercent(100)
	}
}

// firstReports bounds how long Watch's first update waits for the
// sources' first reports (a tmux source's first sweep runs `tmux
// list-panes` and `capture-pane`: tens of ms).
const firstReports = time.Second

// Watch emits a snapshot at once (once every source has reported, within
// firstReports), then again whenever the store, a source or a remote
// changes, and at least every tick (slowTick once process exits come by
// event). Only what changed is re-read: the store files fsnotify names,
// the observations a source sends. The channel closes after ctx ends, once
// every source's Watch has returned (a caller that exits should drain it
// first). A store directory that doesn't exist yet is watched for from its
// parent.
func Watch(ctx context.Context, o Options) (<-chan Update, error) {
	wt, err := newWatcher(ctx, o)
	if err != nil {
		return nil, err
	}
	wt.startSources()
	go wt.run()
	return wt.out, nil
}

// watcher is one Watch: the store's directory watch and the sources'
// reports coming in, the passes that turn them into updates going out.
type watcher struct {
	ctx context.Context
	o   Options
	out chan Update

	fw       *fsnotify.Watcher
	storeDir string
	dirs     []string        // directories watched for
	watched  map[string]bool // directories watched (dirs, or a parent until they exist)

	reports chan sourceUpdate
	// sourcesRunning counts the sources' Watch calls: the update channel
	// closes only once every one has returned, so whatever a source keeps
	// outside this process (the tmux source's memory of the panes) is
	// settled before the caller exits.
	sourcesRunning sync.WaitGroup

	world    *world
	live     *liveCache
	exits    *exitEvents
	ticker   *time.Ticker
	interval time.Duration
	// last is what was sent, so an unchanged pass sends nothing.
	last     []*session.Shown
	lastErrs []string
	// pending fires the next pass, coalescing the changes until then;
	// dirty says a file or a source changed since the last one.
	pending <-chan time.Time
	// holdPass fires when a verdict held by time ends (world.holdEnds).
	holdPass <-chan time.Time
	dirty    bool
	lastPass time.Time
	// passes counts the passes since the last idleCheck; idleGC says the
	// collector is set for idle (collectForIdle).
	passes int
	idleGC bool
}

// sourceUpdate is one report of a source: its observations (with the
// problems behind them, source.Partial), or why it stopped.
type sourceUpdate struct {
	name     string
	obs      []Observation
	problems []error
	err      error
}

func newWatcher(ctx context.Context, o Options) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	storeDir := o.Store.Dir()
	// The store's folder is made now (the hook makes it too, 0700): while
	// it is missing only the tick would find it, the watch stopping at
	// $MEW_HOME (addWatches), and on Linux the tick can be a minute. A
	// folder that cannot be made is looked for on the tick.
	_ = o.Store.EnsureDir()
	wt := &watcher{
		ctx: ctx, o: o, out: make(chan Update, 1),
		fw: fw, storeDir: storeDir, dirs: []string{storeDir}, watched: map[string]bool{},
		reports: make(chan sourceUpdate, len(o.Sources)+1),
	}
	wt.addWatches()
	return wt, nil
}

// addWatches watches each directory, or, while it does not exist, its
// nearest existing parent up to $MEW_HOME, never $HOME or above
// (watchfs.Folders: macOS's kqueue opens every entry of a watched folder,
// Desktop and Documents included); with none, the next tick looks again.
func (wt *watcher) addWatches() {
	f := watchfs.Folders{Add: wt.fw.Add, Watched: wt.watched, Within: wt.o.Store.Home}
	f.Follow(wt.dirs...)
}

// startSources runs each source's Watch, relaying its reports.
func (wt *watcher) startSources() {
	for _, src := range wt.o.Sources {
		wt.sourcesRunning.Add(1)
		go wt.relay(src)
	}
}

// relay runs src's Watch and passes each of its reports on (the problems
// behind them asked at once), and its error if it stops before ctx ends.
func (wt *watcher) relay(src Source) {
	ctx := wt.ctx
	ch := make(chan []Observation, 1)
	done := make(chan error, 1)
	go func() {
		defer wt.sourcesRunning.Done()
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
			case wt.reports <- u:
			case <-ctx.Done():
				return
			}
		case err := <-done:
			if err != nil && ctx.Err() == nil {
				select {
				case wt.reports <- sourceUpdate{name: src.Name(), err: err}:
				case <-ctx.Done():
				}
			}
			return
		}
	}
}

// run reads the store, sends the first update and then one per change,
// until ctx ends.
func (wt *watcher) run() {
	defer func() {
		wt.sourcesRunning.Wait()
		close(wt.out)
	}()
	defer wt.fw.Close()
	wt.world = newWorld()
	wt.world.readAll(wt.o)
	wt.live = newLiveCache(wt.o)
	wt.exits = newExitEvents()
	defer wt.exits.close()
	wt.interval = wt.exits.interval()
	wt.ticker = time.NewTicker(wt.interval)
	defer wt.ticker.Stop()
	if !wt.first() {
		return
	}
	// Starting (the rules, every source's first read) leaves garbage the
	// runtime would keep for a while, and code and tables it touched once:
	// a watcher runs all day, idle.
	debug.FreeOSMemory()
	resident.DropStartPages()
	wt.loop()
}

// first sends the first update once each source has reported, or
// firstReports passed: a reader that takes only the first list (`mew
// status` reading a remote's feed) must get the screens too.
func (wt *watcher) first() bool {
	reported := map[string]bool{}
	deadline := time.After(firstReports)
wait:
	for len(reported) < len(wt.o.Sources) {
		select {
		case u := <-wt.reports:
			wt.take(u)
			reported[u.name] = true
		case <-deadline:
			break wait
		case <-wt.ctx.Done():
			return false
		}
	}
	return wt.emit(true)
}

// loop is the event loop: every change schedules a pass (schedule), the
// tick re-reads the store and re-checks liveness.
func (wt *watcher) loop() {
	var remoteChanged <-chan struct{}
	if wt.o.Remote != nil {
		remoteChanged = wt.o.Remote.Changes()
	}
	// The sources' first sweeps and reads touch what they need once (the
	// rules they compile): once they settled, that leaves the resident
	// set too.
	settled := time.After(dropAgainAfter)
	gcCheck := time.NewTicker(idleCheck)
	defer gcCheck.Stop()
	for {
		select {
		case <-wt.ctx.Done():
			return
		case <-settled:
			settled = nil
			resident.DropStartPages()
		case <-gcCheck.C:
			wt.collectForIdle()
		case ev, ok := <-wt.fw.Events:
			if !ok {
				return
			}
			urgent := wt.storeEvent(ev)
			switch {
			case urgent:
				if !wt.passNow() {
					return
				}
			case wt.dirty:
				wt.schedule()
			}
		case <-wt.fw.Errors:
			// Overflow or a vanished directory: read everything again.
			wt.rescan()
			wt.schedule()
		case u := <-wt.reports:
			urgent := wt.take(u)
			wt.dirty = true
			if reports(u.obs) {
				wt.nudge()
			}
			if urgent {
				// A dialog just drawn: the hook that reported it first (an
				// agent that reports its dialog, then draws it) may be
				// written with its file event not yet taken in, and it
				// names what waits.
				wt.world.readAll(wt.o)
				if !wt.passNow() {
					return
				}
				continue
			}
			wt.schedule()
		case pid := <-wt.exits.exits():
			wt.exits.exited(pid)
			wt.live.forgetPid(pid)
			wt.schedule()
		case <-remoteChanged:
			wt.schedule()
		case <-wt.holdPass:
			wt.holdPass = nil
			if !wt.emit(false) {
				return
			}
		case <-wt.pending:
			if !wt.passNow() {
				return
			}
		case <-wt.ticker.C:
			wt.addWatches()
			wt.world.readAll(wt.o) // stats every file; re-reads only the changed ones
			wt.live.forget()
			if !wt.emit(false) {
				return
			}
		}
	}
}

// passNow runs the pending pass now (a pending timer is dropped: this
// pass takes in what it waited for); false once ctx ended.
func (wt *watcher) passNow() bool {
	wt.pending, wt.dirty, wt.lastPass = nil, false, time.Now()
	return wt.emit(false)
}

// storeEvent re-reads what a file event in (or above) the store's
// directory names. It reports whether the event is urgent: a hook's
// report that the session needs the person.
func (wt *watcher) storeEvent(ev fsnotify.Event) (urgent bool) {
	dir, base := filepath.Dir(ev.Name), filepath.Base(ev.Name)
	switch {
	case slices.Contains(wt.dirs, ev.Name) || aboveAny(ev.Name, wt.dirs):
		// A watched-for directory (or one on the way to it) appeared or
		// went: watch what exists now, read it whole. Without this, the
		// next tick would, which may be slowTick away.
		wt.rescan()
	case dir == wt.storeDir && isSessionFile(base):
		id := strings.TrimSuffix(base, ".json")
		before := wt.world.recs[id].Hook
		wt.dirty = wt.world.reloadStoreFile(wt.o, base) || wt.dirty
		if after := wt.world.recs[id].Hook; after != nil && (before == nil || !after.At.Equal(before.At)) {
			wt.nudge() // a hook or plugin reported
			return needsYou(after.State) && (before == nil || before.State != after.State || before.Reason != after.Reason)
		}
	}
	return false
}

// needsYou: a state in which the session waits for the person.
func needsYou(s session.State) bool {
	return s == session.Waiting || s == session.Done || s == session.Failed
}

// obsNeedsYou: an observation that by itself says its session needs the
// person (its agent's registry or log, or a dialog on its screen).
func obsNeedsYou(o Observation) bool {
	return (o.Registry != nil && o.Registry.Status == "waiting") ||
		(o.Log != nil && needsYou(o.Log.State)) ||
		(o.Screen != nil && o.Screen.State == session.ScreenBlocked)
}

// newlyNeedsYou reports whether obs has an observation that needs the
// person where before (the same source's previous report) had none of the
// same session.
func newlyNeedsYou(before, obs []Observation) bool {
	var had map[[2]string]bool
	for _, o := range obs {
		if !obsNeedsYou(o) {
			continue
		}
		if had == nil {
			had = make(map[[2]string]bool, len(before))
			for _, b := range before {
				if obsNeedsYou(b) {
					had[[2]string{b.ID, b.Fallback}] = true
				}
			}
		}
		if !had[[2]string{o.ID, o.Fallback}] {
			return true
		}
	}
	return false
}

// nudge has the screen sources read now (source.Nudger): a report just
// came, and the screen confirms or corrects it before the 700 ms sweep
// would (a prompt answered, a turn that ended in an error or an Esc).
func (wt *watcher) nudge() {
	for _, src := range wt.o.Sources {
		if n, ok := src.(source.Nudger); ok {
			n.Nudge()
		}
	}
}

// reports says whether observations carry an agent's own report (its
// registry, its log), as opposed to what a screen or the process table
// shows.
func reports(obs []Observation) bool {
	for _, o := range obs {
		if o.Log != nil || o.Registry != nil {
			return true
		}
	}
	return false
}

// rescan watches what exists now and reads the store whole.
func (wt *watcher) rescan() {
	wt.addWatches()
	wt.world.readAll(wt.o)
	wt.dirty = true
}

// take keeps a source's report; it reports whether the report is urgent
// (newlyNeedsYou).
func (wt *watcher) take(u sourceUpdate) (urgent bool) {
	w := wt.world
	if u.err != nil {
		w.obsErrs[u.name] = u.err
		return false
	}
	urgent = newlyNeedsYou(w.obs[u.name], u.obs)
	delete(w.obsErrs, u.name)
	w.obs[u.name] = u.obs
	w.problems[u.name] = u.problems
	w.obsGen++
	return urgent
}

// schedule sets the next pass, unless one is set: coalesce from now, or
// busyCoalesce when the last pass was less than busyWindow ago. An urgent
// change does not come here: it runs its pass at once (passNow).
func (wt *watcher) schedule() {
	if wt.pending != nil {
		return
	}
	wait := coalesce
	if time.Since(wt.lastPass) < busyWindow {
		wait = busyCoalesce
	}
	wt.pending = time.After(wait)
}

// emit runs a pass and sends its update, unless nothing changed since the
// last one and force is false; it reports false once ctx ended.
func (wt *watcher) emit(force bool) bool {
	o := wt.o
	wt.passes++
	shown, recs, errs := wt.world.compute(o, wt.live)
	if until := wt.world.holdEnds; !until.IsZero() {
		wt.holdPass = time.After(time.Until(until) + time.Millisecond)
	}
	if w := wt.world; !w.quick || w.pidsMoved || len(wt.exits.failed) > 0 {
		// A quick pass that moved no process leaves the set followed
		// as it was (and none failed to be: no retry due).
		wt.exits.follow(recs, func(r session.Record) bool { return wt.live.check(r) == combine.Dead })
	}
	if i := wt.exits.interval(); i != wt.interval {
		wt.interval = i
		wt.ticker.Reset(i)
	}
	shown, errs = o.withRemote(shown, errs)
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	// Every pass goes through here, so the world's changed (this list
	// against the last pass's) is this list against the last one sent;
	// the other machines' sessions are compared whole.
	same := !wt.world.changed
	if o.Remote != nil {
		same = reflect.DeepEqual(shown, wt.last)
	}
	if !force && same && slices.Equal(msgs, wt.lastErrs) {
		return true
	}
	wt.last, wt.lastErrs = shown, msgs
	select {
	case wt.out <- Update{Sessions: shown, Errors: errs, Records: recs}:
		return true
	case <-wt.ctx.Done():
		return false
	}
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
