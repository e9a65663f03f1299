package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/store"
	"golang.org/x/sys/unix"
)

// maxCommitAttempts bounds how often commit starts over because another
// program wrote the settings file under it.
const maxCommitAttempts = 200

// commit writes what apply makes of the settings file's current content,
// never losing a write another program (Claude Code, an editor) makes at
// the same moment. The new bytes are written and flushed to a temporary
// file; if the file still holds what apply worked from, an atomic
// exchange puts them in place and hands back the bytes they displaced.
// Whenever the file holds something else, someone wrote in between and
// apply runs again on their bytes. (After an exchange that displaced
// someone's bytes, the file holds Mew's previous attempt, which the next
// exchange then expects to displace.) A removal moves the file aside the
// same way and puts back bytes that were not the expected ones. f ends up
// as the content the final write was based on. After maxCommitAttempts
// conflicts it gives up, leaving the other program's bytes in place.
func (f *settingsFile) commit(apply func(settingsFile) (out []byte, remove bool, err error)) error {
	expect, expectExists := f.data, f.exists
	for attempt := 1; ; attempt++ {
		out, remove, err := apply(*f)
		if err != nil {
			return err
		}
		if !remove && f.exists && expectExists && bytes.Equal(expect, f.data) && bytes.Equal(out, f.data) {
			// Their bytes already are what Mew would write (an uninstall
			// with nothing left to take out): a swap would only displace
			// the file a write of theirs may still be landing in.
			return nil
		}
		var was []byte
		var existed, swapped bool
		if remove {
			was, existed, swapped, err = takeOut(f.path, expect, expectExists)
		} else {
			was, existed, swapped, err = swapIn(f.path, out, f.mode, expect, expectExists)
		}
		if err != nil {
			return &FileError{Path: f.path, Err: err}
		}
		if existed == expectExists && bytes.Equal(was, expect) {
			return nil
		}
		// Someone wrote between our read and our write; what they wrote
		// is in was.
		switch {
		case !swapped: // nothing of ours went in
			f.data, f.exists = was, existed
			expect, expectExists = was, existed
		case remove: // their file was taken out: it goes back
			if existed {
				if err := restore(f.path, was, f.mode); err != nil {
					return &FileError{Path: f.path, Err: err}
				}
			}
			now, err := readSettings(f.path)
			if err != nil {
				return err
			}
			f.data, f.exists = now.data, now.exists
			expect, expectExists = now.data, now.exists
		default: // their bytes were displaced by ours
			f.data, f.exists = was, existed
			expect, expectExists = out, true
			if attempt >= maxCommitAttempts {
				giveBack(f.path, f.mode, out, was, existed)
			}
		}
		if attempt >= maxCommitAttempts {
			return &FileError{Path: f.path, Err: fmt.Errorf("another program kept changing it (%d tries); run the command again", attempt)}
		}
	}
}

// giveBack undoes an exchange that displaced another program's bytes
// (theirs) with Mew's stale edit (ours), going on while each exchange
// displaces a still newer write of theirs.
func giveBack(path string, mode fs.FileMode, ours, theirs []byte, existed bool) {
	for range maxCommitAttempts {
		var d []byte
		var dExisted bool
		var err error
		if existed {
			d, dExisted, _, err = swapIn(path, theirs, mode, nil, false)
		} else {
			d, dExisted, _, err = takeOut(path, nil, false)
		}
		if err != nil || (dExisted && bytes.Equal(d, ours)) {
			return
		}
		ours, theirs, existed = theirs, d, dExisted
	}
}

// swapIn puts data at path in one atomic step, provided path still holds
// expect (or, with !expectExists, nothing), and returns the bytes it
// displaced (existed is false when there was no file); swapped says
// whether data went in. The new file is flushed to disk before it takes
// the name, and the directory after, so a crash leaves the old or the new
// settings, never an empty file. A nil expect with !expectExists skips
// the check.
func swapIn(path string, data []byte, mode fs.FileMode, expect []byte, expectExists bool) (was []byte, existed, swapped bool, err error) {
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return nil, false, false, err
	}
	defer os.Remove(tmp)
	for {
		// Flushing took a while: look before exchanging, so a write
		// made meanwhile is picked up without touching the file.
		if cur, curExists, moved, err := changed(path, expect, expectExists); err != nil || moved {
			return cur, curExists, false, err
		}
		err := exchange(tmp, path)
		switch {
		case err == nil:
			// tmp now names the displaced file.
			was, err := settled(tmp, expect)
			if err != nil {
				// Theirs goes back (a writer still holding it writes
				// to the file at path again), ours goes.
				exchange(tmp, path)
				return nil, true, false, err
			}
			return was, true, true, syncDir(path)
		case errors.Is(err, fs.ErrNotExist):
			// No file at path: create it, unless one appears meanwhile
			// (a link never replaces).
			err := os.Link(tmp, path)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return nil, false, false, err
			}
			return nil, false, true, syncDir(path)
		case errors.Is(err, errNoExchange):
			// A file system without exchange: read, then rename (two
			// steps; the window between them is a few microseconds).
			was, existed, err := current(path)
			if err != nil {
				return nil, false, false, err
			}
			if err := os.Rename(tmp, path); err != nil {
				return nil, false, false, err
			}
			return was, existed, true, syncDir(path)
		default:
			return nil, false, false, err
		}
	}
}

// changed reads path and says whether it no longer holds expect (or,
// with !expectExists, no longer nothing). A nil expect with !expectExists
// checks nothing. A file found cut short is read again once it is whole.
func changed(path string, expect []byte, expectExists bool) (cur []byte, curExists, moved bool, err error) {
	if expect == nil && !expectExists {
		return nil, false, false, nil
	}
	if beforeLook != nil {
		beforeLook(path)
	}
	cur, curExists, err = current(path)
	if err != nil {
		return nil, false, false, err
	}
	moved = curExists != expectExists || !bytes.Equal(cur, expect)
	if moved && curExists && !whole(cur) {
		// An in-place writer between its truncate and its write: commit
		// would build on the half (an uninstall finding nothing to take
		// out of an empty file swapped an empty file in, and the write
		// went to the displaced one). Its bytes are read once written.
		cur, err = wholeOnce(path, expect)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, expectExists, nil
		}
		if err != nil {
			return nil, false, false, err
		}
		moved = !expectExists || !bytes.Equal(cur, expect)
	}
	return cur, curExists, moved, nil
}

// wholeOnce reads path until it finds it whole (or holding expect). No
// stillness is waited for, unlike settled: a writer rewriting the file
// without pause would never let it be still, and commit looks again
// before it writes anyway.
func wholeOnce(path string, expect []byte) ([]byte, error) {
	for tries := 0; tries < maxLooks; tries++ {
		data, _, err := readStamped(path)
		if err != nil {
			return nil, err
		}
		if whole(data) || bytes.Equal(data, expect) {
			return data, nil
		}
		time.Sleep(settleGap)
	}
	return nil, errCutShort
}

// beforeLook, when set (by a test), runs as changed starts: another
// program's write can be made to fall exactly there.
var beforeLook func(path string)

// current reads path; existed is false when there is no file.
func current(path string) (data []byte, existed bool, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// takeOut removes path in one atomic step (a rename to a temporary name),
// provided it still holds expect (see swapIn), and returns the bytes the
// file held.
func takeOut(path string, expect []byte, expectExists bool) (was []byte, existed, swapped bool, err error) {
	if cur, curExists, moved, err := changed(path, expect, expectExists); err != nil || moved {
		return cur, curExists, false, err
	}
	tmp := tempName(path)
	if err := os.Rename(path, tmp); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, false, nil
		}
		return nil, false, false, err
	}
	defer os.Remove(tmp)
	was, err = settled(tmp, expect)
	if err != nil {
		os.Rename(tmp, path) // theirs goes back
		return nil, true, false, err
	}
	return was, true, true, syncDir(path)
}

// settleLooks and settleGap: how long settled watches a displaced file;
// maxLooks bounds how long a file being written is waited for (settled,
// wholeOnce) before errCutShort.
const (
	settleLooks = 3
	settleGap   = time.Millisecond
	maxLooks    = 200
)

// errCutShort: another program's file stayed between its truncate and its
// write; nothing is built on it.
var errCutShort = errors.New("another program was writing it (it stayed cut short); run the command again")

// settled reads the file an exchange (or a take-out) just displaced, once
// it has stopped changing. A program that writes the file in place
// (truncate, then write) may have opened it before the exchange: its
// write then lands in the displaced file, after the exchange, and would be
// lost with it. Its bytes are read only when several looks in a row find
// the file unchanged, so commit sees them (not a truncated half) and
// starts over on them.
func settled(path string, expect []byte) ([]byte, error) {
	data, st, err := readStamped(path)
	if err != nil {
		return nil, err
	}
	// A file that is not what commit expected and not whole is being
	// written: look on until it is (bounded).
	cutShort := func() bool { return !bytes.Equal(data, expect) && !whole(data) }
	for same, tries := 0, 0; (same < settleLooks || cutShort()) && tries < maxLooks; tries++ {
		time.Sleep(settleGap)
		var now fileStamp
		if now, err = stampOf(path); err != nil {
			return nil, err
		}
		if now == st {
			same++
			continue
		}
		same = 0
		if data, st, err = readStamped(path); err != nil {
			return nil, err
		}
	}
	if cutShort() {
		// Still a truncated half (a writer paused between its truncate
		// and its write on a loaded machine): never build on it.
		return nil, errCutShort
	}
	return data, nil
}

// whole reports whether a displaced settings file looks written in full:
// not empty, and a whole JSON object when it starts as one (every settings
// file Mew edits is; an in-place writer's file between its truncate and
// its write is empty or cut short). A leading '[' is not taken as JSON: a
// TOML table starts so.
func whole(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return false
	}
	if t[0] == '{' {
		return json.Valid(t)
	}
	return true
}

type fileStamp struct {
	size     int64
	mod, chg int64
	ino      uint64
}

func stampOf(path string) (fileStamp, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileStamp{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return fileStamp{size: st.Size, mod: unix.TimespecToNsec(st.Mtim), chg: unix.TimespecToNsec(st.Ctim), ino: uint64(st.Ino)}, nil
}

// readStamped reads path with the stamp it had throughout the read (the
// last read's after many tries: a file rewritten without pause).
func readStamped(path string) ([]byte, fileStamp, error) {
	for try := 0; ; try++ {
		before, err := stampOf(path)
		if err != nil {
			return nil, fileStamp{}, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fileStamp{}, err
		}
		after, err := stampOf(path)
		if err != nil {
			return nil, fileStamp{}, err
		}
		if before == after && after.size == int64(len(data)) || try >= 100 {
			return data, after, nil
		}
	}
}

// restore puts data back at path unless a file is there already (a newer
// one, which wins).
func restore(path string, data []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(path)
}

// writeTemp writes data, flushed to disk and with exactly mode, to a new
// file next to path.
func writeTemp(path string, data []byte, mode fs.FileMode) (string, error) {
	return store.WriteTemp(path, data, mode, true)
}

func tempName(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, fmt.Sprintf(".%s.mew-%d-%d.tmp", base, os.Getpid(), time.Now().UnixNano()))
}

// syncDir flushes the directory holding path, so a rename in it survives
// a crash.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// errNoExchange means the platform or file system cannot swap two names
// atomically.
var errNoExchange = errors.New("atomic exchange not supported")

// writeBackup saves data at path. Not flushed: the settings file is what
// must survive a crash; an fsync here would widen the window in which
// another program's write makes commit start over.
func writeBackup(path string, data []byte, mode fs.FileMode) error {
	return store.WriteFileAtomic(path, data, mode)
}
