// Package monitor gathers every source — Mew's session files, Claude Code's
// registry and process liveness — and returns the shown state of each
// session (combine). Snapshot is one pass; Watch repeats it whenever a file
// changes (fsnotify) and at least once a second (a process can die without
// touching any file).
package monitor

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/mew-dev/mew/combine"
	"github.com/mew-dev/mew/liveness"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/proctree/gops"
	"github.com/mew-dev/mew/registry"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// Options says where to look and how.
type Options struct {
	Store       store.Store
	RegistryDir string // "" disables the registry source
	Procs       proctree.Table
	TicksToMs   func(uint64) (int64, bool)
	Now         func() time.Time
	// ForgetAfter: exited sessions older than this are removed from the
	// store; 0 keeps them.
	ForgetAfter time.Duration
	// LockTimeout bounds the wait for a session lock when folding registry
	// observations into the store.
	LockTimeout time.Duration
}

// DefaultForgetAfter is how long an exited session stays listed.
const DefaultForgetAfter = 30 * time.Minute

// Default returns the options for this user: $MEW_HOME (or ~/.mew), Claude
// Code's registry, the real process table.
func Default() (Options, error) {
	st, err := store.Open()
	if err != nil {
		return Options{}, err
	}
	dir, err := registry.Dir()
	if err != nil {
		dir = "" // no home: run on hooks alone
	}
	return Options{
		Store: st, RegistryDir: dir, Procs: gops.Table{}, TicksToMs: proctree.TicksToUnixMs,
		Now: time.Now, ForgetAfter: DefaultForgetAfter, LockTimeout: time.Second,
	}, nil
}

// Snapshot reads every source once and returns the shown sessions, needs-you
// first. Problems with single files are returned as errors next to a
// result that leaves those files out.
func Snapshot(o Options) ([]session.Shown, []error) {
	now := o.now()
	recs, loadErrs := o.Store.List()
	var errs []error
	for _, e := range loadErrs {
		errs = append(errs, e)
	}
	if o.RegistryDir != "" {
		var regErrs []error
		recs, regErrs = foldRegistry(o, recs, now)
		errs = append(errs, regErrs...)
	}
	checker := liveness.Checker{Procs: o.Procs, TicksToMs: o.TicksToMs}
	shown := make([]session.Shown, 0, len(recs))
	for _, rec := range recs {
		s := combine.Combine(rec, checker.Check(rec))
		if s.State == session.Exited && o.ForgetAfter > 0 && now.Sub(s.Since) > o.ForgetAfter {
			if err := o.Store.Remove(rec.ID, o.lockTimeout()); err != nil && !errors.Is(err, store.ErrLockTimeout) {
				errs = append(errs, fmt.Errorf("forgetting %s: %w", rec.ID, err))
			}
			continue
		}
		shown = append(shown, s)
	}
	Sort(shown)
	return shown, errs
}

// foldRegistry brings the registry's documents into the records (and the
// store, so a one-shot `mew status` remembers what it saw: a registry-only
// session needs to know a turn ran to call the next idle "done").
func foldRegistry(o Options, recs []session.Record, now time.Time) ([]session.Record, []error) {
	entries, errs := registry.ReadDir(o.RegistryDir)
	docs := pickDocs(entries)
	byID := make(map[string]int, len(recs))
	for i, r := range recs {
		byID[r.ID] = i
	}
	for id, e := range docs {
		i, known := byID[id]
		var prev *session.RegistryState
		if known {
			prev = recs[i].Registry
		}
		next := registry.Observe(prev, e.Doc, e.File, now)
		if prev != nil && sameRegistry(*prev, next) {
			continue
		}
		rec := session.Record{Version: session.RecordVersion, ID: id, Agent: session.AgentClaude}
		if known {
			rec = recs[i]
		}
		rec.Registry = &next
		if updated, err := persistRegistry(o, id, e, now); err == nil {
			rec = updated
		} else if !errors.Is(err, store.ErrLockTimeout) {
			errs = append(errs, fmt.Errorf("recording registry state of %s: %w", id, err))
		}
		if known {
			recs[i] = rec
		} else {
			byID[id] = len(recs)
			recs = append(recs, rec)
		}
	}
	// A session whose registry file disappeared: Claude Code exited (or an
	// older Claude Code never wrote one, in which case Registry is nil).
	for i := range recs {
		r := recs[i].Registry
		if r == nil || r.Gone {
			continue
		}
		if _, ok := docs[recs[i].ID]; ok {
			continue
		}
		gone := registry.Vanish(*r, now)
		recs[i].Registry = &gone
		id := recs[i].ID
		_, err := o.Store.Update(id, o.lockTimeout(), func(rec *session.Record, existed bool) bool {
			if !existed || rec.Registry == nil || rec.Registry.Gone {
				return false
			}
			g := registry.Vanish(*rec.Registry, now)
			rec.Registry = &g
			return true
		})
		if err != nil && !errors.Is(err, store.ErrLockTimeout) {
			errs = append(errs, fmt.Errorf("recording that %s's registry file is gone: %w", id, err))
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	return recs, errs
}

// persistRegistry folds one document into the stored record under its lock
// (the hook may be writing the same record) and returns the result.
func persistRegistry(o Options, id string, e registry.Entry, now time.Time) (session.Record, error) {
	var out session.Record
	_, err := o.Store.Update(id, o.lockTimeout(), func(rec *session.Record, _ bool) bool {
		next := registry.Observe(rec.Registry, e.Doc, e.File, now)
		changed := rec.Registry == nil || !sameRegistry(*rec.Registry, next)
		rec.Registry = &next
		out = *rec
		return changed
	})
	return out, err
}

// pickDocs chooses one document per session: Claude Code may leave a stale
// file of a dead process for a session it later resumed in another; the
// most recently updated one wins.
func pickDocs(entries []registry.Entry) map[string]registry.Entry {
	docs := make(map[string]registry.Entry, len(entries))
	for _, e := range entries {
		cur, ok := docs[e.Doc.SessionID]
		if !ok || e.Doc.StatusAt.After(cur.Doc.StatusAt) || (e.Doc.StatusAt.Equal(cur.Doc.StatusAt) && e.Doc.StartedAt.After(cur.Doc.StartedAt)) {
			docs[e.Doc.SessionID] = e
		}
	}
	return docs
}

// Sort orders sessions the way a person reads them: waiting (longest wait
// first), then done and failed, then working, then the rest; ties by id.
func Sort(s []session.Shown) {
	sort.SliceStable(s, func(i, j int) bool {
		ri, rj := rank(s[i].State), rank(s[j].State)
		if ri != rj {
			return ri < rj
		}
		if !s[i].Since.Equal(s[j].Since) {
			return s[i].Since.Before(s[j].Since)
		}
		return s[i].ID < s[j].ID
	})
}

func rank(st session.State) int {
	switch st {
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

func (o Options) lockTimeout() time.Duration {
	if o.LockTimeout > 0 {
		return o.LockTimeout
	}
	return time.Second
}

// sameRegistry compares two observations (times by instant: == on time.Time
// also compares locations and monotonic readings).
func sameRegistry(a, b session.RegistryState) bool {
	if !a.At.Equal(b.At) || !a.LastTurnAt.Equal(b.LastTurnAt) || !a.StartedAt.Equal(b.StartedAt) {
		return false
	}
	a.At, a.LastTurnAt, a.StartedAt = b.At, b.LastTurnAt, b.StartedAt
	return a == b
}
