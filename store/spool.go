package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/session"
)

// The spool: how a writer records a change without waiting for the
// session's lock (the hook, of which thousands can run at once).
//
// A writer that finds the lock taken (TryUpdate says so) writes its change
// as one entry file into <id>.json.spool/ (Append: a temporary file renamed
// in, so no reader sees half an entry) and leaves. Whoever holds the lock
// folds the spool into the record along with its own change (every Update
// and TryUpdate does, in the entries' order), and after releasing the lock
// looks again (help): an entry spooled while it held the lock was spooled
// by a writer whose try failed then, so the releaser sees it, or whoever
// took the lock next did and looks again in turn. Readers (Load, List) fold
// pending entries in memory: they see an event as soon as it is spooled.
//
// The record file keeps the lock + rename guarantees of Update; an entry is
// removed only after the record that holds it is in place.
//
// Entries are opaque here: the store is given how they fold (Store.Fold:
// hookbin.Fold for hook events, wired by each program that opens a store).
// A store with no fold leaves the spool alone.

// maxEntry bounds one spooled entry (a hook payload is at most 4 MiB).
const maxEntry = 8 << 20

// maxSpoolAttempts bounds how often Append recreates a spool that a
// folder removes as it empties it (each time, a folder made progress).
const maxSpoolAttempts = 100

// orderDigits is the width of the order at the start of an entry's name,
// so names sort in the order entries are folded.
const orderDigits = 20

// Fold folds one spooled entry into rec; its note (an entry folded as
// nothing, say) joins the writer's notes, its error sets the entry aside.
type Fold func(rec *session.Record, entry []byte) (note string, err error)

// commitSem is held while a record holding spooled entries replaces the old
// one and the entries go: a process exiting at its deadline (StopCommits)
// never leaves an entry that is also in the record (it would fold twice).
var commitSem = make(chan struct{}, 1)

// StopCommits waits, at most wait, for a commit in progress to finish and
// keeps any other from starting: for a process about to exit.
func StopCommits(wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case commitSem <- struct{}{}:
	case <-t.C:
	}
}

func spoolDir(record string) string { return record + ".spool" }

// TryUpdate is Update for a writer that must never wait: it runs change
// only if the session's lock is free right now (done reports whether it
// did). Spooled entries ordered before order (the writer's clock reading)
// are folded in before change, the later ones after. Once the lock is
// released it folds what others spooled meanwhile, until until.
func (s Store) TryUpdate(id string, order int64, until time.Time, change func(rec *session.Record, existed bool) bool) (done bool, note string, err error) {
	return s.TryUpdateAnd(id, order, until, change, nil)
}

// TryUpdateAnd is TryUpdate calling durable (if not nil) as soon as the
// record is written, before it helps fold others' entries: from then on
// the change is kept whatever happens to the caller (the hook's deadline
// log says "dropped" only before).
func (s Store) TryUpdateAnd(id string, order int64, until time.Time, change func(rec *session.Record, existed bool) bool, durable func()) (done bool, note string, err error) {
	p, err := s.Path(id)
	if err != nil {
		return false, "", err
	}
	unlock, ok, err := tryLock(p)
	if errors.Is(err, fs.ErrNotExist) {
		if err := s.EnsureDir(); err != nil {
			return false, "", err
		}
		unlock, ok, err = tryLock(p)
	}
	if err != nil || !ok {
		return false, "", err
	}
	note, err = updateLocked(s.Fold, p, id, order, change)
	unlock()
	if err != nil {
		return false, note, err
	}
	if durable != nil {
		durable()
	}
	return true, joinNotes(note, help(s.Fold, p, id, until)), nil
}

// Append spools entry for session id without taking its lock, to be folded
// in order (the writer's monotonic clock reading), then folds the spool
// itself if the lock is free by now (and keeps folding what others spool,
// until until). When it returns without error the entry is either in the
// record or in the spool, where the lock's holder will fold it.
func (s Store) Append(id string, order int64, entry []byte, until time.Time) (note string, err error) {
	return s.AppendAnd(id, order, entry, until, nil)
}

// AppendAnd is Append calling durable (if not nil) as soon as the entry is
// in the spool, before it helps fold (see TryUpdateAnd).
func (s Store) AppendAnd(id string, order int64, entry []byte, until time.Time, durable func()) (note string, err error) {
	p, err := s.Path(id)
	if err != nil {
		return "", err
	}
	if len(entry) > maxEntry {
		return "", fmt.Errorf("a spooled entry of %d bytes is over the %d byte limit", len(entry), maxEntry)
	}
	dir := spoolDir(p)
	final := filepath.Join(dir, fmt.Sprintf("%0*d-%d-%d", orderDigits, max(order, 0), os.Getpid(), time.Now().UnixNano()))
	for attempt := 0; ; attempt++ {
		// The temporary name starts with a dot: no reader takes it for an
		// entry, and the directory cannot be removed while it is there.
		tmp, err := WriteTemp(final, entry, fileMode, false)
		if err == nil {
			if err := unix.Rename(tmp, final); err != nil {
				unix.Unlink(tmp)
				return "", &fs.PathError{Op: "spool", Path: final, Err: err}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || attempt >= maxSpoolAttempts {
			return "", err
		}
		// No spool yet, or a folder just removed the empty one (and may
		// again, right after this Mkdir: then try again).
		if err := os.MkdirAll(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("cannot create the spool: %w", err)
		}
	}
	if durable != nil {
		durable()
	}
	return help(s.Fold, p, id, until), nil
}

// help folds what was spooled while the caller held the lock, for as long
// as the lock is free and there is time. Out of time with entries still
// spooled, it marks the record changed, so a watching reader reads it again
// (Load folds them) until the next writer folds them for good.
func help(fold Fold, p, id string, until time.Time) (notes string) {
	if fold == nil {
		return ""
	}
	for {
		if !hasPending(spoolDir(p)) {
			return notes
		}
		if time.Now().After(until) {
			now := time.Now()
			_ = os.Chtimes(p, now, now)
			return notes
		}
		unlock, ok, err := tryLock(p)
		if err != nil || !ok {
			// Busy: the holder looks again once it lets go.
			return notes
		}
		note, err := updateLocked(fold, p, id, -1, nil)
		unlock()
		notes = joinNotes(notes, note)
		if err != nil {
			return joinNotes(notes, "could not fold the spooled events: "+err.Error())
		}
	}
}

// tryLock takes the session's lock only if it is free.
func tryLock(record string) (unlock func(), ok bool, err error) {
	path := record + ".lock"
	for {
		fl := flock.New(path, flock.SetPermissions(fileMode), flock.SetFlag(lockFlags))
		got, err := fl.TryLock()
		if err != nil {
			fl.Close()
			return nil, false, fmt.Errorf("cannot lock %s: %w", filepath.Base(path), err)
		}
		if !got {
			fl.Close()
			return nil, false, nil
		}
		if stillLinked(fl) {
			return func() { fl.Unlock(); fl.Close() }, true, nil
		}
		// Remove unlinked it: lock the path's new file.
		fl.Unlock()
		fl.Close()
	}
}

// claimedPrefix marks an entry a writer is committing: renamed so before
// the record that holds it replaces the old one, removed after. Readers
// skip it (else, between the record's rename and the entry's removal, they
// would fold it twice); a writer finding one left by a writer that died
// mid-commit folds it again (most of a commit is writing the record, so the
// record most likely does not hold it).
const claimedPrefix = ".claimed-"

// pendingEntries lists a spool's entries in fold order; none when there is
// no spool (the usual case: one failed open). withClaimed adds what a
// writer that died mid-commit left claimed (for writers, under the lock).
func pendingEntries(dir string, withClaimed bool) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	kept := names[:0]
	for _, n := range names {
		if !strings.HasPrefix(n, ".") || (withClaimed && strings.HasPrefix(n, claimedPrefix)) {
			kept = append(kept, n)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return entryKey(kept[i]) < entryKey(kept[j]) })
	return kept
}

// hasPending reports whether a spool holds an entry (pending, or left
// claimed by a writer that died), reading no more of its listing than it
// must: every writer asks after its write, so listing and sorting the
// whole spool here made a burst O(n²).
func hasPending(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(64)
		for _, n := range names {
			if !strings.HasPrefix(n, ".") || strings.HasPrefix(n, claimedPrefix) {
				return true
			}
		}
		if err != nil || len(names) == 0 {
			return false
		}
	}
}

// entryKey is the name an entry was spooled under, claimed or not.
func entryKey(name string) string { return strings.TrimPrefix(name, claimedPrefix) }

// spool is one listing of a session's spool, as folded into one record.
type spool struct {
	dir      string
	names    []string // pending entries, in fold order
	folded   []string // entries now in the record
	notes    []string
	readOnly bool // a reader's fold: nothing is moved or removed
	apply    Fold
}

func openSpool(fold Fold, record string) *spool {
	sp := &spool{dir: spoolDir(record), apply: fold}
	if fold != nil {
		sp.names = pendingEntries(sp.dir, true)
	}
	return sp
}

// split divides the entries into those ordered before order and the rest;
// order < 0 puts every entry before.
func (sp *spool) split(order int64) (before, after []string) {
	if order < 0 {
		return sp.names, nil
	}
	key := fmt.Sprintf("%0*d", orderDigits, order)
	i := sort.Search(len(sp.names), func(i int) bool {
		n := entryKey(sp.names[i])
		return len(n) >= orderDigits && n[:orderDigits] > key
	})
	return sp.names[:i], sp.names[i:]
}

// fold folds the named entries into rec; it reports whether any was. An
// entry that cannot be read or folded is set aside (.bad-<name>, kept for
// people) with a note, so it never blocks the spool.
func (sp *spool) fold(rec *session.Record, names []string) bool {
	changed := false
	for _, name := range names {
		path := filepath.Join(sp.dir, name)
		data, err := readEntry(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // folded by the lock's holder since the listing (a reader's race)
		}
		var note string
		if err == nil {
			note, err = sp.apply(rec, data)
		}
		if note != "" && !sp.readOnly {
			sp.notes = append(sp.notes, note)
		}
		if err != nil {
			if !sp.readOnly {
				bad := ".bad-" + entryKey(name)
				_ = os.Rename(path, filepath.Join(sp.dir, bad))
				sp.notes = append(sp.notes, fmt.Sprintf("spooled entry %s set aside as %s: %v", entryKey(name), bad, err))
			}
			continue
		}
		sp.folded = append(sp.folded, name)
		changed = true
	}
	return changed
}

func readEntry(path string) ([]byte, error) {
	// A FIFO here hung the open, and every later hook of the session
	// with it: refused (and set aside) like any bad entry.
	return privfile.ReadFile(path, maxEntry)
}

func (sp *spool) note() string { return strings.Join(sp.notes, "; ") }

// commit writes the record (write) and then removes the entries it holds.
// They are claimed first (see claimedPrefix), so no reader sees an entry
// and the record holding it at once.
func (sp *spool) commit(write func() error) error {
	if len(sp.folded) == 0 {
		return write()
	}
	commitSem <- struct{}{}
	defer func() { <-commitSem }()
	claimed := make([]string, 0, len(sp.folded))
	for _, name := range sp.folded {
		c := claimedPrefix + entryKey(name)
		if name == c || os.Rename(filepath.Join(sp.dir, name), filepath.Join(sp.dir, c)) == nil {
			claimed = append(claimed, c)
		}
	}
	if err := write(); err != nil {
		for _, c := range claimed { // back to the spool for the next writer
			_ = os.Rename(filepath.Join(sp.dir, c), filepath.Join(sp.dir, entryKey(c)))
		}
		return err
	}
	for _, c := range claimed {
		_ = unix.Unlink(filepath.Join(sp.dir, c))
	}
	if len(sp.folded) == len(sp.names) {
		// Empty now (unless a writer is spooling: then it stays): the next
		// writer's check is one failed open.
		_ = unix.Rmdir(sp.dir)
	}
	return nil
}

// withPending is a reader's view of a record: the spooled entries folded
// in, in memory.
func withPending(fold Fold, p, id string, rec session.Record, err error) (session.Record, error) {
	if fold == nil || (err != nil && !errors.Is(err, fs.ErrNotExist)) {
		return rec, err
	}
	names := pendingEntries(spoolDir(p), false)
	if len(names) == 0 {
		return rec, err
	}
	if err != nil {
		rec = session.Record{Version: session.RecordVersion, ID: id, Agent: session.AgentClaude}
	}
	sp := &spool{dir: spoolDir(p), names: names, readOnly: true, apply: fold}
	if !sp.fold(&rec, names) && err != nil {
		return session.Record{}, err
	}
	return rec, nil
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
