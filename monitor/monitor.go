// Package monitor is the read side: it turns what the sources saw into
// the sessions Mew shows. One pass is a pipeline:
//
//  1. Sources: the store ($MEW_HOME/sessions: the records the hook and
//     `mew run` write) and the sources the program hands it
//     (Options.Sources: cmd/mew builds Claude Code's registry, Codex's
//     rollouts and processes, Copilot CLI's logs, agy's transcripts, the
//     tmux panes, the process scan), each read on its own. This package
//     knows the source interface only.
//  2. Identity and merge: a Recorder's readings (the registry's) are
//     folded into the stored record of their session and written back
//     there; every other observation joins the record of the session it
//     names, or of the same process (Merge): one record per agent process.
//  3. Combine: each record, with its process's liveness
//     (monitor/liveness), becomes its shown state (monitor/combine);
//     exited sessions are forgotten after ForgetAfter.
//  4. The shown list: needs-you first (Sort), the other machines'
//     sessions (Options.Remote, source/remote) joined after this one's.
//
// Snapshot and Records are one pass. Watch keeps every source's latest
// view in memory and runs a pass when something changed: a store file
// named by an fsnotify event, a source's new observations, a process's
// exit, and at least every tick (a process can die without touching any
// file).
package monitor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/clock"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/monitor/liveness"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/store"
)

// Source is an outside source (package source).
type Source = source.Source

// Options says where to look and how.
type Options struct {
	Store store.Store
	// Sources are the sources besides the store: agents' own session files
	// and logs, screens, processes.
	Sources   []Source
	Procs     proctree.Table
	TicksToMs func(uint64) (int64, bool)
	Now       func() time.Time
	Mono      func() int64 // the monotonic clock (internal/clock); tests set it
	// ForgetAfter: exited sessions older than this are removed from the
	// store; 0 keeps them.
	ForgetAfter time.Duration
	// LockTimeout bounds the wait for a session lock when folding a
	// Recorder's observations (the registry's) into the store.
	LockTimeout time.Duration
	// ScanTimeout bounds one Scan of each source in Snapshot.
	ScanTimeout time.Duration
	// Remote lists the sessions of other machines (source/remote's Hub), merged
	// after this machine's; nil for none.
	Remote RemoteSessions
}

// RemoteSessions are sessions on other machines: their latest list (each
// with its Host), and a signal whenever it changes.
type RemoteSessions interface {
	Sessions() []session.Shown
	Changes() <-chan struct{}
}

// withRemote merges the other machines' sessions into this machine's.
func (o Options) withRemote(shown []*session.Shown, errs []error) ([]*session.Shown, []error) {
	if o.Remote == nil {
		return shown, errs
	}
	all, dup := mergeRemote(shown, o.Remote.Sessions())
	slices.SortStableFunc(all, compareShown)
	return all, append(errs, dup...)
}

// DefaultForgetAfter is how long an exited session stays listed.
const DefaultForgetAfter = 30 * time.Minute

// defaultScanTimeout bounds a source's one-shot scan: `mew status` must
// answer even when tmux hangs.
const defaultScanTimeout = 2 * time.Second

// ForStore returns the options for the store st and the sources the
// program wired (cmd/mew is the composition root: the read side knows the
// source interface only): the process table read the lean way (liveness only
// needs a process's start time: gopsutil reads much more, every pass), the
// real clocks, exited sessions forgotten after DefaultForgetAfter.
func ForStore(st store.Store, sources []Source) Options {
	return Options{
		Store: st, Procs: proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs,
		Now: time.Now, ForgetAfter: DefaultForgetAfter, LockTimeout: time.Second,
		Sources: sources,
	}
}

// Snapshot reads every source once and returns the shown sessions, needs-you
// first. Problems with single files or sources are returned as errors next
// to a result that leaves those out.
func Snapshot(o Options) ([]session.Shown, []error) {
	w := newWorld()
	// The sources first, the store after: a hook written while the panes
	// were read (an agent that reports its dialog, then draws it) is known
	// when a screen shows the dialog, and it names what waits.
	errs := w.scanSources(o)
	w.readAll(o)
	shown, _, more := w.compute(o, newLiveCache(o))
	all, errs := o.withRemote(shown, append(errs, more...))
	return Values(all), errs
}

// Values copies a list an update shares (Update.Sessions, Update.Records)
// for a consumer that wants values of its own.
func Values[T any](list []*T) []T {
	out := make([]T, len(list))
	for i, p := range list {
		out[i] = *p
	}
	return out
}

// Records reads every source once and returns the merged records (what
// combine sees), sorted by id: what a jump or an answer needs to find a
// session's terminal.
func Records(o Options) ([]session.Record, []error) {
	w := newWorld()
	w.readAll(o)
	errs := w.scanSources(o)
	errs = append(errs, w.scanOtherTmux(o)...)
	recs, more, _ := w.merged(o, newLiveCache(o))
	return recs, append(errs, more...)
}

// maxOtherTmux bounds the other tmux servers a one-shot read looks at.
const maxOtherTmux = 4

// scanOtherTmux reads, once, the tmux servers other than the one Mew
// watches that sessions' hooks name ($TMUX in the agent's pane): `mew
// answer` or `mew jump` run outside that server still see the prompt on
// the session's screen (its choices). Each is a source of its own; the
// identity join keeps each pane on its server.
func (w *world) scanOtherTmux(o Options) []error {
	var src OtherServers
	for _, s := range o.Sources {
		if t, ok := s.(OtherServers); ok {
			src = t
			break
		}
	}
	if src == nil {
		return nil
	}
	seen := map[string]bool{src.ServerSocket(): true}
	var errs []error
	for _, id := range sortedKeys(w.recs) {
		p := w.recs[id].Process
		if p == nil || p.Tmux == nil || p.Tmux.Socket == "" || seen[p.Tmux.Socket] || len(seen) > maxOtherTmux {
			continue
		}
		sock := p.Tmux.Socket
		seen[sock] = true
		if fi, err := os.Stat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue
		}
		if err := w.scanOne(o, "tmux:"+sock, src.ForServer(sock)); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// OtherServers is a source of one server's panes (tmux) that can make the
// same source for another server: the monitor knows the interface only,
// not the concrete source (cmd/mew wires those).
type OtherServers interface {
	Source
	// ServerSocket is the socket path of the server it reads.
	ServerSocket() string
	// ForServer is the same source for the server at socket.
	ForServer(socket string) Source
}

// world is every source's latest view: the store's records and the other
// sources' observations.
type world struct {
	recs     map[string]session.Record // store records by id
	files    map[string]watchfs.Stamp  // store file name → what was read (the store replaces by rename: a new inode)
	loadErrs map[string]error          // store file name → why it could not be read
	obs      map[string][]Observation  // by source name
	obsErrs  map[string]error          // by source name: why it stopped
	problems map[string][]error        // by source name: what its observations left out (source.Partial)

	// What a shown session was computed from, so a pass recomputes only
	// the sessions whose inputs changed (hundreds of sessions, tens of
	// changes a second): a generation per stored record, and one for the
	// other sources.
	gen    map[string]uint64
	obsGen uint64
	// holdEnds is the earliest moment the last compute's verdicts change
	// by time alone (combine.HoldUntil), zero for none: the watcher passes
	// again then.
	holdEnds time.Time
	// shown is each session's shown state with what it was computed
	// from; listed is the last compute's list, in its order (Sort), which
	// the next one keeps for the sessions that did not change: a pass
	// sorts only what changed, and knows whether the list did (changed)
	// without comparing it whole.
	shown    map[string]*shownEntry
	listed   []*shownEntry
	last     []*session.Shown  // the list of listed; never changed once handed out
	lastRecs []*session.Record // the merged records behind last, by id; the same
	pass     uint64
	changed  bool
	// settled says the last full pass merged nothing into the stored
	// records (no source's observation, no screen-only record, nothing a
	// Recorder changed) and had no error or forgetting to retry: while the
	// other sources and the liveness verdicts stay as they were (settledObs,
	// settledLive), a pass recomputes only the records touched since
	// (quickPass), and hands out the lists of the last one with those
	// entries replaced. forgetAt is the earliest moment a listed exited
	// session is due to be forgotten (zero: none).
	settled                 bool
	settledObs, settledLive uint64
	forgetAt                time.Time
	// quick says the last compute was a quick pass; pidsMoved that one of
	// its records changed process or liveness (exits.follow must look).
	quick, pidsMoved bool
	// order is the stored records' ids, sorted (redone when one comes or
	// goes); sorted, the records in that order, kept up to date for the
	// ids touched since (merged copies it, rather than look up every
	// record each pass).
	order   []string
	sorted  []session.Record
	touched map[string]bool
}

// shownEntry is one session's shown state in compute. s is never changed
// once made (updates share it): a new state is a new value.
type shownEntry struct {
	s    *session.Shown
	from shownKey
	// seen and listed are the last passes that saw the session and that
	// listed it; moved says this pass's state differs from the last one's.
	seen, listed uint64
	moved        bool
}

// shownKey is what a session's shown state depends on.
type shownKey struct {
	gen, obs, live uint64
	liveness       combine.Liveness
	held           bool // a hold of combine's was still running (combine.HoldUntil)
}

// touch records that the stored record of id changed.
func (w *world) touch(id string) {
	w.gen[id]++
	if w.touched == nil {
		w.touched = map[string]bool{}
	}
	w.touched[id] = true
}

// sortedRecs is a copy of the stored records, sorted by id.
func (w *world) sortedRecs() []session.Record {
	ok := len(w.order) == len(w.recs) && len(w.sorted) == len(w.order)
	for id := range w.touched {
		if !ok {
			break
		}
		i, listed := slices.BinarySearch(w.order, id)
		r, stored := w.recs[id]
		if listed != stored {
			ok = false // one came or went: sort again
		} else if listed {
			w.sorted[i] = r
		}
	}
	if !ok {
		w.order = sortedKeys(w.recs)
		w.sorted = w.sorted[:0]
		for _, id := range w.order {
			w.sorted = append(w.sorted, w.recs[id])
		}
	}
	clear(w.touched)
	return slices.Clone(w.sorted)
}

// joinedChanged records that a stored record that joins another one (a
// `mew run` screen, screenOnly) changed or went: the session it joined is
// shown from it, under that session's id, whose own generation did not
// move. Like another source's report, it makes every session be
// combined again.
func (w *world) joinedChanged() { w.obsGen++ }

// screenOnly: a stored record only a screen reports (`mew run`'s
// run:<pid>). merged makes it an observation that joins the hooks', the
// registry's or a log's record of the same process.
func screenOnly(r session.Record) bool {
	return r.Screen != nil && r.Hook == nil && r.Registry == nil && r.Log == nil && r.Process != nil
}

func newWorld() *world {
	return &world{
		recs: map[string]session.Record{}, files: map[string]watchfs.Stamp{}, loadErrs: map[string]error{},
		obs: map[string][]Observation{}, obsErrs: map[string]error{}, problems: map[string][]error{},
		gen: map[string]uint64{}, shown: map[string]*shownEntry{},
	}
}

// scanSources runs each source's one-shot scan.
func (w *world) scanSources(o Options) []error {
	var errs []error
	for _, src := range o.Sources {
		if err := w.scanOne(o, src.Name(), src); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// scanOne reads src once, bounded by o.ScanTimeout, as the source name.
func (w *world) scanOne(o Options, name string, src interface {
	Scan(context.Context) ([]Observation, error)
}) error {
	timeout := o.ScanTimeout
	if timeout <= 0 {
		timeout = defaultScanTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	obs, err := src.Scan(ctx)
	cancel()
	w.obs[name] = obs
	w.obsGen++
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// merged folds the Recorders' observations (the registry's) into the store
// records, persisting what they learnt, and merges the other sources'
// observations, one record per session. plain says the records are the
// stored ones as they are: no Recorder had an observation or changed a
// record, and nothing was merged.
func (w *world) merged(o Options, live *liveCache) (recs []session.Record, errs []error, plain bool) {
	now := o.now()
	recs = w.sortedRecs()
	plain = true
	recorded := map[string]bool{}
	for _, src := range o.Sources {
		rs, ok := src.(source.Recorder)
		if !ok {
			continue
		}
		recorded[src.Name()] = true
		obs, reported := w.obs[src.Name()]
		if !reported {
			continue // not read yet: its sessions are not gone
		}
		var persisted map[string]session.Record
		var more []error
		var changed bool
		recs, persisted, changed, more = record(o, rs, recs, obs, now)
		plain = plain && !changed && len(obs) == 0
		errs = append(errs, more...)
		for id, r := range persisted {
			w.recs[id] = r // what the store now holds: not persisted again
			w.touch(id)
		}
	}
	names := make([]string, 0, len(w.obs))
	for name := range w.obs {
		if !recorded[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var obs []Observation
	for _, name := range names {
		obs = append(obs, w.obs[name]...)
	}
	plain = plain && len(obs) == 0 && !slices.ContainsFunc(recs, screenOnly)
	return mergeAll(recs, obs, func(r session.Record) bool { return live.check(r) != combine.Dead }), errs, plain
}

// mergeAll merges the stored records and the sources' observations: a
// session only a screen reports (`mew run`'s run:<pid>) is an observation
// too, and joins the hooks', a plugin's or the registry's record of the
// same process; a bare process (the process scan) joins whatever else saw
// it, so it goes last: a screen or log of the same process names the
// session.
func mergeAll(recs []session.Record, sourced []Observation, alive func(session.Record) bool) []session.Record {
	if !slices.ContainsFunc(recs, screenOnly) && len(sourced) == 0 {
		return recs // nothing to merge: no copy of hundreds of records
	}
	reports := recs[:0:0]
	var obs []Observation
	for _, r := range recs {
		if screenOnly(r) {
			obs = append(obs, Observation{Fallback: r.ID, Agent: r.Agent, Process: *r.Process, Screen: r.Screen})
			continue
		}
		reports = append(reports, r)
	}
	obs = append(obs, sourced...)
	sort.SliceStable(obs, func(i, j int) bool { return !bareProcess(obs[i]) && bareProcess(obs[j]) })
	return Merge(reports, obs, alive)
}

func bareProcess(o Observation) bool { return o.Screen == nil && o.Log == nil && o.Terminal == nil }

// compute combines every merged record, forgetting exited sessions past
// ForgetAfter. The lists it returns are shared with the updates before
// and after it: neither they nor their entries are ever changed.
func (w *world) compute(o Options, live *liveCache) ([]*session.Shown, []*session.Record, []error) {
	if shown, recs, ok := w.quickPass(o, live); ok {
		return shown, recs, w.problemList(nil)
	}
	w.quick = false
	merged, errs, plain := w.merged(o, live)
	settled := plain && len(errs) == 0
	errs = w.problemList(errs)
	recs := make([]*session.Record, len(merged))
	for i := range merged {
		recs[i] = &merged[i] // merged is this pass's own copy
	}
	now := o.now()
	w.holdEnds, w.forgetAt = time.Time{}, time.Time{}
	w.pass++
	pass := w.pass
	var fresh []*shownEntry // listed now, and moved or not listed before
	listed, seen := 0, 0
	for _, rec := range recs {
		liveness := live.check(*rec)
		until := combine.HoldUntil(*rec)
		held := now.Before(until)
		if held && (w.holdEnds.IsZero() || until.Before(w.holdEnds)) {
			w.holdEnds = until
		}
		key := shownKey{gen: w.gen[rec.ID], obs: w.obsGen, live: live.gen, liveness: liveness, held: held}
		e := w.shown[rec.ID]
		if e == nil {
			s := w.combine(*rec, liveness, now)
			e = &shownEntry{s: &s, from: key, moved: true}
			w.shown[rec.ID] = e
		} else if e.from != key {
			if s := w.combine(*rec, liveness, now); !reflect.DeepEqual(s, *e.s) {
				e.s, e.moved = &s, true
			}
			e.from = key
		}
		if e.seen != pass {
			seen++
		}
		e.seen = pass
		if e.s.State == session.Exited && o.ForgetAfter > 0 {
			forget := e.s.Since.Add(o.ForgetAfter)
			if now.After(forget) {
				settled = false // tried again next pass, if it stays
				if _, stored := w.recs[rec.ID]; stored {
					if err := o.Store.Remove(rec.ID, o.lockTimeout()); err != nil && !errors.Is(err, store.ErrLockTimeout) {
						errs = append(errs, fmt.Errorf("forgetting %s: %w", rec.ID, err))
					} else if err == nil {
						delete(w.recs, rec.ID)
					}
				}
				continue
			}
			if w.forgetAt.IsZero() || forget.Before(w.forgetAt) {
				w.forgetAt = forget
			}
		}
		if e.listed == pass {
			continue // one id twice: listed once
		}
		if e.moved || e.listed != pass-1 {
			fresh = append(fresh, e)
		}
		e.listed = pass
		listed++
	}
	if seen != len(w.shown) {
		for id, e := range w.shown {
			if e.seen != pass {
				delete(w.shown, id)
			}
		}
	}
	w.settled, w.settledObs, w.settledLive = settled, w.obsGen, live.gen
	w.lastRecs = recs
	// The sessions that did not move keep their order (the order is total:
	// ties go by id), the others are sorted and merged in.
	if len(fresh) == 0 && listed == len(w.listed) && w.last != nil {
		// Every session listed before is listed, unmoved: the same list.
		w.changed = false
		return w.last, recs, errs
	}
	slices.SortFunc(fresh, func(a, b *shownEntry) int { return compareShown(a.s, b.s) })
	kept := 0
	order := make([]*shownEntry, 0, listed)
	f := 0
	for _, e := range w.listed {
		if e.listed != pass || e.moved {
			continue
		}
		kept++
		for ; f < len(fresh) && compareShown(fresh[f].s, e.s) < 0; f++ {
			order = append(order, fresh[f])
		}
		order = append(order, e)
	}
	order = append(order, fresh[f:]...)
	for _, e := range fresh {
		e.moved = false
	}
	w.changed = len(fresh) > 0 || kept != len(w.listed)
	w.listed, w.last = order, listOf(order)
	return w.last, recs, errs
}

// listOf is the shown states of entries, in their order.
func listOf(entries []*shownEntry) []*session.Shown {
	out := make([]*session.Shown, len(entries))
	for i, e := range entries {
		out[i] = e.s
	}
	return out
}

// problemList is errs and the problems every pass repeats: store files
// that could not be read, what sources left out, sources that stopped.
func (w *world) problemList(errs []error) []error {
	for _, name := range sortedKeys(w.loadErrs) {
		errs = append(errs, w.loadErrs[name])
	}
	for _, name := range sortedKeys(w.problems) {
		for _, err := range w.problems[name] {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	for _, name := range sortedKeys(w.obsErrs) {
		errs = append(errs, w.obsErrs[name])
	}
	return errs
}

// quickPass is compute when the last full pass was settled and only stored
// records changed since, each one still listed and nothing a Recorder
// would change in it: it combines those records alone and puts them in
// the last lists (a pass costs what changed, not what is listed; hundreds
// of sessions, tens of changes a second). It reports false, having
// changed nothing that matters, when a full pass is needed.
func (w *world) quickPass(o Options, live *liveCache) ([]*session.Shown, []*session.Record, bool) {
	if !w.settled || w.last == nil || w.obsGen != w.settledObs || live.gen != w.settledLive ||
		len(w.order) != len(w.recs) || len(w.sorted) != len(w.order) || len(w.lastRecs) != len(w.order) {
		return nil, nil, false
	}
	now := o.now()
	if !w.holdEnds.IsZero() && !now.Before(w.holdEnds) {
		return nil, nil, false // a verdict held by time ends: every record again
	}
	if !w.forgetAt.IsZero() && now.After(w.forgetAt) {
		return nil, nil, false
	}
	var recorders []source.Recorder
	for _, src := range o.Sources {
		if rs, ok := src.(source.Recorder); ok {
			obs, reported := w.obs[src.Name()]
			if len(obs) > 0 {
				return nil, nil, false
			}
			if reported {
				recorders = append(recorders, rs)
			}
		}
	}
	type change struct {
		i     int // in order, sorted and recs
		e     *shownEntry
		rec   session.Record
		s     *session.Shown // the new state; nil: unchanged
		key   shownKey
		until time.Time
	}
	var changes []change
	mono := o.mono()
	for id := range w.touched {
		i, listed := slices.BinarySearch(w.order, id)
		rec, stored := w.recs[id]
		e := w.shown[id]
		if !listed || !stored || e == nil || e.listed != w.pass || screenOnly(rec) {
			return nil, nil, false // one came or went, or joins another
		}
		for _, rs := range recorders {
			if c := rec; rs.Record(&c, nil, now, mono) {
				return nil, nil, false
			}
		}
		liveness := live.check(rec)
		until := combine.HoldUntil(rec)
		key := shownKey{gen: w.gen[id], obs: w.obsGen, live: live.gen, liveness: liveness, held: now.Before(until)}
		c := change{i: i, e: e, rec: rec, key: key, until: until}
		if e.from != key {
			if s := w.combine(rec, liveness, now); !reflect.DeepEqual(s, *e.s) {
				c.s = &s
			}
		}
		st := e.s
		if c.s != nil {
			st = c.s
		}
		if st.State == session.Exited && o.ForgetAfter > 0 {
			forget := st.Since.Add(o.ForgetAfter)
			if now.After(forget) {
				return nil, nil, false
			}
			if w.forgetAt.IsZero() || forget.Before(w.forgetAt) {
				w.forgetAt = forget // earlier than needed at worst: a full pass then
			}
		}
		changes = append(changes, c)
	}
	clear(w.touched)
	w.quick, w.pidsMoved, w.changed = true, false, false
	if len(changes) == 0 {
		return w.last, w.lastRecs, true
	}
	recs := slices.Clone(w.lastRecs)
	var moved []*shownEntry
	for _, c := range changes {
		old := recs[c.i]
		if pidOf(*old) != pidOf(c.rec) || live.check(*old) != c.key.liveness {
			w.pidsMoved = true
		}
		w.sorted[c.i] = c.rec
		r := c.rec
		recs[c.i] = &r
		if c.key.held && (w.holdEnds.IsZero() || c.until.Before(w.holdEnds)) {
			w.holdEnds = c.until
		}
		c.e.from = c.key
		if c.s != nil {
			c.e.s = c.s
			moved = append(moved, c.e)
		}
	}
	w.lastRecs = recs
	if len(moved) == 0 {
		return w.last, recs, true
	}
	// The moved entries leave their places and are put back where the
	// order (total: ties go by id) says: what a full pass's merge makes.
	order := slices.DeleteFunc(slices.Clone(w.listed), func(e *shownEntry) bool { return slices.Contains(moved, e) })
	slices.SortFunc(moved, func(a, b *shownEntry) int { return compareShown(a.s, b.s) })
	for _, e := range moved {
		at, _ := slices.BinarySearchFunc(order, e, func(x, t *shownEntry) int { return compareShown(x.s, t.s) })
		order = slices.Insert(order, at, e)
	}
	w.changed = true
	w.listed, w.last = order, listOf(order)
	return w.last, recs, true
}

// combine is the shown state of one merged record.
func (w *world) combine(rec session.Record, liveness combine.Liveness, now time.Time) session.Shown {
	s := combine.At(rec, liveness, now)
	if s.Since.IsZero() {
		// A record that carries no time at all: its file's time is when
		// anything last happened to it (an exited session is then
		// forgotten ForgetAfter later, not at once).
		if f, ok := w.files[rec.ID+".json"]; ok {
			s.Since = f.ModTime().UTC()
		}
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// record brings a Recorder's observations into the records (and the
// store, so a one-shot `mew status` remembers what it saw: a registry-only
// session needs to know a turn ran to call the next idle "done"). It
// returns the records, the ones it wrote to the store, whether it changed
// any, and errors.
func record(o Options, src source.Recorder, recs []session.Record, obs []Observation, now time.Time) ([]session.Record, map[string]session.Record, bool, []error) {
	var errs []error
	changed := false
	persisted := map[string]session.Record{}
	known := len(recs) // recs come sorted; only sessions added here need sorting
	var byID map[string]int
	if len(obs) > 0 { // none: no session to find (hundreds of records)
		byID = make(map[string]int, len(recs))
		for i, r := range recs {
			byID[r.ID] = i
		}
	}
	obs = slices.Clone(obs)
	sort.SliceStable(obs, func(i, j int) bool { return obs[i].ID < obs[j].ID })
	seen := make(map[string]bool, len(obs))
	mono := o.mono() // once: a clock read per record is a syscall each
	for k := range obs {
		ob := &obs[k]
		id := ob.ID
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		i, known := byID[id]
		rec := session.Record{Version: session.RecordVersion, ID: id, Agent: ob.Agent}
		if known {
			rec = recs[i]
		}
		if !src.Record(&rec, ob, now, mono) && known {
			continue
		}
		changed = true
		if updated, err := persist(o, src, id, ob, now); err == nil {
			rec = updated
			persisted[id] = updated
		} else if !errors.Is(err, store.ErrLockTimeout) {
			errs = append(errs, fmt.Errorf("recording %s state of %s: %w", src.Name(), id, err))
		}
		if known {
			recs[i] = rec
		} else {
			byID[id] = len(recs)
			recs = append(recs, rec)
		}
	}
	// A session the source no longer reports (the registry: its file
	// disappeared, Claude Code exited; an older Claude Code never wrote
	// one, and the record has nothing of the registry to fold).
	for i := range recs {
		if seen[recs[i].ID] {
			continue
		}
		gone := recs[i]
		if !src.Record(&gone, nil, now, mono) {
			continue
		}
		changed = true
		recs[i] = gone
		if out, err := persist(o, src, gone.ID, nil, now); err == nil && out.ID == gone.ID {
			persisted[gone.ID] = out
		} else if err != nil && !errors.Is(err, store.ErrLockTimeout) {
			errs = append(errs, fmt.Errorf("recording that %s left the %s: %w", gone.ID, src.Name(), err))
		}
	}
	if len(recs) > known {
		sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	}
	return recs, persisted, changed, errs
}

// persist folds one observation (nil: gone) into the stored record under
// its lock (the hook may be writing the same record) and returns the
// result. A record that is not stored is not made for a nil observation.
func persist(o Options, src source.Recorder, id string, ob *Observation, now time.Time) (session.Record, error) {
	var out session.Record
	_, err := o.Store.Update(id, o.lockTimeout(), func(rec *session.Record, existed bool) bool {
		out = *rec
		if ob == nil && !existed {
			return false
		}
		changed := src.Record(rec, ob, now, o.mono())
		out = *rec
		return changed
	})
	return out, err
}

// Sort orders sessions the way a person reads them: waiting (longest wait
// first), then done and failed, then working, then the rest (headless
// sessions that wait or are done among them); ties by id.
func Sort(s []session.Shown) {
	slices.SortStableFunc(s, func(a, b session.Shown) int { return compareShown(&a, &b) })
}

// Compare is Sort's order (an update's list is in it), for a consumer
// that walks two lists side by side.
func Compare(a, b *session.Shown) int { return compareShown(a, b) }

// compareShown is Sort's order.
func compareShown(a, b *session.Shown) int {
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	if c := a.Since.Compare(b.Since); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func rank(s *session.Shown) int {
	if s.Headless && s.State != session.Working {
		return 3 // nobody attends it: with the idle ones
	}
	switch s.State {
	case session.Waiting:
		return 0
	case session.Done, session.Failed:
		return 1
	case session.Working:
		return 2
	case session.Idle:
		return 3
	}
	return 4
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

func (o Options) mono() int64 {
	if o.Mono != nil {
		return o.Mono()
	}
	return clock.Mono()
}

func (o Options) lockTimeout() time.Duration {
	if o.LockTimeout > 0 {
		return o.LockTimeout
	}
	return time.Second
}

// liveCache remembers liveness verdicts by process, so a pass over many
// sessions does not read the process table once per session per change;
// Watch refreshes it every tick.
type liveCache struct {
	checker liveness.Checker
	known   map[liveKey]combine.Liveness
	gen     uint64 // bumped whenever verdicts are dropped
}

type liveKey struct {
	id  string
	pid int
}

func newLiveCache(o Options) *liveCache {
	return &liveCache{checker: liveness.Checker{Procs: o.Procs, TicksToMs: o.TicksToMs}, known: map[liveKey]combine.Liveness{}}
}

func (c *liveCache) check(rec session.Record) combine.Liveness {
	k := liveKey{rec.ID, pidOf(rec)}
	if v, ok := c.known[k]; ok {
		return v
	}
	v := c.checker.Check(rec)
	c.known[k] = v
	return v
}

// forget drops every verdict: the next check reads the process table.
func (c *liveCache) forget() { clear(c.known); c.gen++ }

func pidOf(rec session.Record) int {
	switch {
	case rec.Registry != nil && rec.Registry.Pid > 0:
		return rec.Registry.Pid
	case rec.Process != nil && rec.Process.Pid > 0:
		return rec.Process.Pid
	case rec.Screen != nil:
		return rec.Screen.Pid
	}
	return 0
}
