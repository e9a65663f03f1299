// Package store keeps one JSON file per session in $MEW_HOME/sessions. Every
// change happens under a per-session lock (gofrs/flock) as read → change →
// write a temporary file in the same directory → rename, so a reader never
// sees half a file and concurrent hook processes never lose an update.
//
// Records are encoded with generated code (easyjson, in package session),
// not reflection: the hook decodes and encodes one on every call.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

const (
	dirMode  = 0o700
	fileMode = 0o600
	// maxRecord bounds what is read of a session file; the reducer keeps
	// records far smaller, so anything bigger is not ours.
	maxRecord = 1 << 20
)

// ErrLockTimeout means another process held the session's lock too long.
var ErrLockTimeout = errors.New("timed out waiting for the session lock")

// ErrInvalidID means a session id is not a plain safe name.
var ErrInvalidID = errors.New("session id is not a plain safe name")

// Home returns $MEW_HOME, or ~/.mew.
func Home() (string, error) {
	if h := os.Getenv("MEW_HOME"); h != "" {
		return h, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory for ~/.mew: %w", err)
	}
	return filepath.Join(home, ".mew"), nil
}

// Store is the session directory of one MEW_HOME.
type Store struct {
	Home string
	// Fold folds the entries spooled for a session (spool.go): every
	// writer folds them into the record, every reader in memory. Nil
	// leaves the spool alone (a writer does not fold it, a reader does
	// not see it): a store that only names a folder needs none.
	Fold Fold
}

// Open returns the store at $MEW_HOME (or ~/.mew), folding spooled entries
// with fold (hookbin.Fold for the hooks' events; nil for none). It
// creates nothing.
func Open(fold Fold) (Store, error) {
	h, err := Home()
	return Store{Home: h, Fold: fold}, err
}

// Dir is where the session files live.
func (s Store) Dir() string { return filepath.Join(s.Home, "sessions") }

// Path is the file of session id; an id that is not a plain safe name is
// refused before any path is built from it.
func (s Store) Path(id string) (string, error) {
	if !session.ValidID(id) {
		return "", fmt.Errorf("%w: %q", ErrInvalidID, text.Clip(id, 81))
	}
	return filepath.Join(s.Dir(), id+".json"), nil
}

// EnsureDir creates the session directory (0700).
func (s Store) EnsureDir() error {
	if err := os.MkdirAll(s.Dir(), dirMode); err != nil {
		return fmt.Errorf("cannot create the session directory: %w", err)
	}
	return nil
}

// Load reads one session, with the events spooled for it folded in (in
// memory: see spool.go). A missing file with nothing spooled is
// fs.ErrNotExist.
func (s Store) Load(id string) (session.Record, error) {
	p, err := s.Path(id)
	if err != nil {
		return session.Record{}, err
	}
	rec, err := readRecord(p, id)
	return withPending(s.Fold, p, id, rec, err)
}

// Update runs change on session id's record under its lock and writes the
// result if change reports a difference. existed says whether a record was
// on disk. A corrupt file is set aside as <id>.json.corrupt (never
// silently lost) and change starts from an empty record; the returned
// note says so. Events other writers spooled (see Append) are folded in
// first, and once the lock is released Update folds what was spooled
// while it held it (see spool.go).
func (s Store) Update(id string, lockTimeout time.Duration, change func(rec *session.Record, existed bool) bool) (note string, err error) {
	p, err := s.Path(id)
	if err != nil {
		return "", err
	}
	unlock, err := lock(p, lockTimeout)
	if errors.Is(err, fs.ErrNotExist) {
		// The session directory is made on first use only: checking it on
		// every call costs the hook a stat.
		if err := s.EnsureDir(); err != nil {
			return "", err
		}
		unlock, err = lock(p, lockTimeout)
	}
	if err != nil {
		return "", err
	}
	note, err = updateLocked(s.Fold, p, id, -1, change)
	unlock()
	if err != nil {
		return note, err
	}
	return joinNotes(note, help(s.Fold, p, id, time.Now().Add(lockTimeout))), nil
}

// updateLocked is the body of every change: read the record, fold the
// spooled entries ordered before order (all of them for order < 0), run
// change, fold the rest, write. The caller holds the session lock.
func updateLocked(fold Fold, p, id string, order int64, change func(rec *session.Record, existed bool) bool) (note string, err error) {
	// On the heap: a record held in this frame would deepen the hook's
	// stack past a size it otherwise never needs.
	rec := new(session.Record)
	err = readRecordInto(p, id, rec)
	existed := err == nil
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
	case errors.Is(err, errCorrupt):
		aside, rerr := setAside(p)
		if rerr != nil {
			return "", fmt.Errorf("%v; and it could not be set aside: %w", err, rerr)
		}
		note = fmt.Sprintf("%v; moved it to %s and started afresh", err, filepath.Base(aside))
	default:
		return "", err
	}
	if !existed {
		*rec = session.Record{Version: session.RecordVersion, ID: id, Agent: session.AgentClaude}
	}
	sp := openSpool(fold, p)
	before, after := sp.split(order)
	changed := sp.fold(rec, before)
	if change != nil && change(rec, existed) {
		changed = true
	}
	if sp.fold(rec, after) {
		changed = true
	}
	note = joinNotes(note, sp.note())
	if !changed {
		return note, nil
	}
	return note, sp.commit(func() error { return writeRecord(p, rec) })
}

// setAside moves a corrupt file to the first free name of <file>.corrupt,
// <file>.corrupt.2, ...: every corrupt copy is kept, none overwrites an
// earlier one. A hard link claims a name only if it is free (no
// overwrite), then the original name goes; the caller holds the lock.
func setAside(path string) (string, error) {
	for n := 1; ; n++ {
		aside := path + ".corrupt"
		if n > 1 {
			aside += "." + strconv.Itoa(n)
		}
		err := os.Link(path, aside)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return aside, os.Remove(path)
	}
}

// Remove deletes a session's file and its lock file, under the lock. A
// writer already waiting on the removed lock file notices when it gets the
// lock (see lock) and starts over on the path's new one.
func (s Store) Remove(id string, lockTimeout time.Duration) error {
	p, err := s.Path(id)
	if err != nil {
		return err
	}
	unlock, err := lock(p, lockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	_ = os.Remove(swapName(p))
	_ = os.RemoveAll(spoolDir(p))
	// The lock file goes last, still locked: whoever waits on it finds
	// it unlinked once granted and locks the path afresh.
	_ = os.Remove(p + ".lock")
	return nil
}

// LoadError names a session file that could not be read.
type LoadError struct {
	File string
	Err  error
}

func (e LoadError) Error() string {
	msg := e.Err.Error()
	if strings.Contains(msg, e.File+":") {
		return msg // it names the file already: once is enough
	}
	return fmt.Sprintf("%s: %s", e.File, msg)
}

// List reads every session file (each with its spooled events, as Load).
// Files that cannot be read are reported,
// not fatal, and left as they are. A missing directory is an empty store.
func (s Store) List() ([]session.Record, []LoadError) {
	entries, err := os.ReadDir(s.Dir())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []LoadError{{File: s.Dir(), Err: err}}
	}
	var recs []session.Record
	var errs []LoadError
	for _, e := range entries {
		name := e.Name()
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || e.IsDir() {
			continue
		}
		if !session.ValidID(id) {
			errs = append(errs, LoadError{File: name, Err: ErrInvalidID})
			continue
		}
		p := filepath.Join(s.Dir(), name)
		rec, err := readRecord(p, id)
		rec, err = withPending(s.Fold, p, id, rec, err)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) { // removed since ReadDir
				errs = append(errs, LoadError{File: name, Err: err})
			}
			continue
		}
		recs = append(recs, rec)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	return recs, errs
}

var errCorrupt = errors.New("corrupt session file")

func readRecord(path, id string) (session.Record, error) {
	var rec session.Record
	if err := readRecordInto(path, id, &rec); err != nil {
		return session.Record{}, err
	}
	return rec, nil
}

// readRecordInto is readRecord into *rec, whose content is undefined on error.
func readRecordInto(path, id string, rec *session.Record) error {
	data, err := readStable(path)
	if err != nil {
		return err
	}
	if err := session.DecodeRecord(data, rec); err != nil {
		// The decoder quotes the file's bytes: one line, bounded.
		return fmt.Errorf("%w %s: %s", errCorrupt, filepath.Base(path), text.OneLine(err.Error(), 160))
	}
	if rec.ID != id {
		return fmt.Errorf("%w %s: it names session %q", errCorrupt, filepath.Base(path), text.Clip(rec.ID, 81))
	}
	if rec.Version > session.RecordVersion {
		return fmt.Errorf("%s was written by a newer Mew (record version %d)", filepath.Base(path), rec.Version)
	}
	return nil
}

// readStable reads a session file, retrying while a writer changes the
// inode under the read (see writeLocked): a reader without the lock never
// returns a mix of two records.
func readStable(path string) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		data, changed, err := readOnce(path)
		if err != nil || !changed {
			return data, err
		}
		if attempt == 10 {
			return nil, fmt.Errorf("%s kept changing while being read", filepath.Base(path))
		}
	}
}

func readOnce(path string) (data []byte, changed bool, err error) {
	// privfile.Open's rule, on the raw fd the stamps need: opened without
	// blocking (a FIFO hung the open), regular files only (a symlink to
	// /dev/zero never ends), bounded below.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, false, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var before, after unix.Stat_t
	if err := unix.Fstat(fd, &before); err != nil {
		return nil, false, err
	}
	if before.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, fmt.Errorf("%w %s: %w", errCorrupt, filepath.Base(path), privfile.ErrNotRegular)
	}
	if before.Size > maxRecord {
		return nil, false, fmt.Errorf("%w %s: larger than %d bytes", errCorrupt, filepath.Base(path), maxRecord)
	}
	data = make([]byte, 0, before.Size+1)
	buf := data[:cap(data)]
	for {
		n, err := unix.Read(fd, buf[len(data):])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if n == 0 {
			break
		}
		data = buf[:len(data)+n]
		if len(data) == len(buf) {
			if len(data) > maxRecord {
				return nil, false, fmt.Errorf("%w %s: larger than %d bytes", errCorrupt, filepath.Base(path), maxRecord)
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
	if err := unix.Fstat(fd, &after); err != nil {
		return nil, false, err
	}
	return data, stamp(&after) != stamp(&before) || after.Size != int64(len(data)), nil
}

// writeRecord stores rec at path; the caller holds the session lock.
func writeRecord(path string, rec *session.Record) error {
	data, err := session.EncodeRecord(rec)
	if err != nil {
		return err
	}
	return writeLocked(path, data)
}

// WriteFileAtomic writes data to a temporary file in path's directory and
// moves it over path, so readers see the old or the new file, never a mix.
// It works on file descriptors directly (unix), not os.File: the hook runs
// this on every call and os.File's poller set-up is pure overhead here.
func WriteFileAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := WriteTemp(path, data, mode, false)
	if err != nil {
		return err
	}
	if err := unix.Rename(tmp, path); err != nil {
		unix.Unlink(tmp)
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// WriteTemp writes data, with exactly mode, to a new file next to path
// (a hidden name of its own) and returns that name; with sync, flushed to
// disk first. The caller renames, links or removes it.
func WriteTemp(path string, data []byte, mode fs.FileMode, sync bool) (string, error) {
	dir, base := filepath.Split(path)
	var tmp string
	var fd int
	for attempt := 0; ; attempt++ {
		tmp = filepath.Join(dir, fmt.Sprintf(".%s.%d-%d.tmp", base, os.Getpid(), time.Now().UnixNano()+int64(attempt)))
		var err error
		fd, err = unix.Open(tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, uint32(mode.Perm()))
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EEXIST) || attempt > 100 {
			return "", &fs.PathError{Op: "create", Path: tmp, Err: err}
		}
	}
	err := writeAll(fd, data)
	if err == nil {
		// umask may have narrowed the mode; the file must have exactly it.
		err = unix.Fchmod(fd, uint32(mode.Perm()))
	}
	if err == nil && sync {
		err = unix.Fsync(fd)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		unix.Unlink(tmp)
		return "", &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return tmp, nil
}

// stamp is what changes when a file's content changes.
func stamp(st *unix.Stat_t) [4]int64 {
	return [4]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec), int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}
}

func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// lockFlags open a session's lock file without blocking and without
// following a symlink: a FIFO put there (by anyone who can write MEW_HOME)
// would otherwise block the open itself, before any lock timeout applies,
// and a symlink could lead anywhere. flock works on whatever is opened.
const lockFlags = os.O_CREATE | os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW

// maxWaitFactor bounds a wait for a session lock that keeps changing hands:
// that many timeouts in all.
const maxWaitFactor = 4

// lock takes the exclusive flock of the session file record (its .lock
// file). It gives up after timeout without progress: while the record
// keeps changing (other writers taking their turns, as when hundreds of
// hooks of one session fire at once) the wait goes on, up to
// maxWaitFactor timeouts in all, so a burst of writers all get their turn
// but a holder that is stuck costs only the timeout. The blocking flock
// call runs on its own goroutine so the wait stays bounded; if it is
// granted after we gave up, the goroutine releases it at once.
//
// A lock granted on a file that is no longer the one at the lock path
// (Remove unlinked it while we waited) protects nothing: a newcomer locks
// the new file. It is let go and the path is locked again.
func lock(record string, timeout time.Duration) (unlock func(), err error) {
	path := record + ".lock"
	w := waiter{record: record, timeout: timeout}
	for {
		fl, err := w.lockOnce(path)
		if err != nil {
			return nil, err
		}
		if stillLinked(fl) {
			return func() { fl.Unlock(); fl.Close() }, nil
		}
		fl.Unlock()
		fl.Close()
	}
}

// stillLinked reports whether the locked file is still the one at its path.
// Only Remove unlinks a lock file, and only while holding it, so a held
// file that still has a link is the one at path: one fstat, no lookup of
// the path (this runs in every hook).
func stillLinked(fl *flock.Flock) bool {
	held, err := fl.Stat()
	if err != nil {
		return false
	}
	st, ok := held.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 0
}

// waiter tracks one wait for a session lock. It looks at the record once
// a timeout: a waiter polling more often, times hundreds of hooks in a
// burst, would take the CPU the lock holder needs.
type waiter struct {
	record  string
	timeout time.Duration
	started bool
	end     time.Time // the wait ends here, progress or not
	last    [5]int64  // the record's identity and times when last looked at
}

// start notes the record as the wait begins.
func (w *waiter) start(now time.Time) {
	if !w.started {
		w.started, w.end, w.last = true, now.Add(maxWaitFactor*w.timeout), recordStamp(w.record)
	}
}

// goOn says, a timeout after the last look, whether the record changed
// meanwhile and there is time left.
func (w *waiter) goOn(now time.Time) bool {
	s := recordStamp(w.record)
	changed := s != w.last
	w.last = s
	return changed && now.Before(w.end)
}

// recordStamp is what changes when a writer replaces the record: its
// inode (the swap alternates two) and times; zeros when it is missing.
func recordStamp(path string) [5]int64 {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return [5]int64{}
	}
	t := stamp(&st)
	return [5]int64{int64(st.Ino), t[0], t[1], t[2], t[3]}
}

func (w *waiter) lockOnce(path string) (*flock.Flock, error) {
	fl := flock.New(path, flock.SetPermissions(fileMode), flock.SetFlag(lockFlags))
	// Uncontended, the lock is free: take it without starting a goroutine
	// (and the thread a blocking syscall would cost the hook).
	if ok, err := fl.TryLock(); err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", filepath.Base(path), err)
	} else if ok {
		return fl, nil
	}
	w.start(time.Now())
	done := make(chan error, 1)
	go func() { done <- fl.Lock() }()
	timer := time.NewTimer(min(w.timeout, time.Until(w.end)))
	defer timer.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return nil, fmt.Errorf("cannot lock %s: %w", filepath.Base(path), err)
			}
			return fl, nil
		case now := <-timer.C:
			if w.goOn(now) {
				timer.Reset(min(w.timeout, w.end.Sub(now)))
				continue
			}
			go func() {
				if <-done == nil {
					fl.Unlock()
				}
				fl.Close()
			}()
			if now.Before(w.end) {
				return nil, fmt.Errorf("%w (%s: %v without progress)", ErrLockTimeout, filepath.Base(path), w.timeout)
			}
			return nil, fmt.Errorf("%w (%s: still busy after %v)", ErrLockTimeout, filepath.Base(path), maxWaitFactor*w.timeout)
		}
	}
}
