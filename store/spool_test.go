package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/session"
)

// The tests' entries are text; folding one appends it to the record's
// Unknown list (a list the store never touches), "bad" fails to fold.
var testFold Fold = func(rec *session.Record, entry []byte) (string, error) {
	if string(entry) == "bad" {
		return "", errors.New("not an entry")
	}
	if rec.Hook == nil {
		rec.Hook = new(session.HookState)
	}
	rec.Hook.Unknown = append(rec.Hook.Unknown, string(entry))
	rec.Hook.EventCount++
	if strings.HasPrefix(string(entry), "noted") {
		return "folded " + string(entry), nil
	}
	return "", nil
}

func folded(rec session.Record) string {
	if rec.Hook == nil {
		return ""
	}
	return strings.Join(rec.Hook.Unknown, ",")
}

// onDisk is the record file alone, without the spool.
func onDisk(t *testing.T, s Store, id string) session.Record {
	t.Helper()
	p, _ := s.Path(id)
	rec, err := readRecord(p, id)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return rec
}

func spoolLeft(t *testing.T, s Store, id string) []string {
	p, _ := s.Path(id)
	return pendingEntries(spoolDir(p), true)
}

func holdLock(t *testing.T, s Store, id string) *flock.Flock {
	t.Helper()
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	fl := flock.New(filepath.Join(s.Dir(), id+".json.lock"))
	if err := fl.Lock(); err != nil {
		t.Fatal(err)
	}
	return fl
}

func appendText(s Store) func(rec *session.Record, _ bool) bool {
	return func(rec *session.Record, _ bool) bool {
		if rec.Hook == nil {
			rec.Hook = new(session.HookState)
		}
		rec.Hook.Unknown = append(rec.Hook.Unknown, "own")
		return true
	}
}

// While the lock is held, events are spooled in any order; readers see
// them folded in their order at once, and the next writer folds them around
// its own change by order and empties the spool.
func TestSpoolIsFoldedInOrder(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	held := holdLock(t, s, "s")
	soon := time.Now().Add(time.Second)
	done, _, err := s.TryUpdate("s", 15, soon, appendText(s))
	if done || err != nil {
		t.Fatalf("TryUpdate with the lock taken: done %v err %v", done, err)
	}
	for _, order := range []int64{30, 10, 20} {
		if _, err := s.Append("s", order, []byte(fmt.Sprint(order)), soon); err != nil {
			t.Fatal(err)
		}
	}
	if got := folded(onDisk(t, s, "s")); got != "" {
		t.Fatalf("written without the lock: %q", got)
	}
	rec, err := s.Load("s")
	if err != nil || folded(rec) != "10,20,30" {
		t.Fatalf("Load = %q, %v; want the spool folded in order", folded(rec), err)
	}
	if recs, errs := s.List(); len(errs) > 0 || len(recs) != 0 {
		// No record file yet: List lists record files.
		t.Fatalf("List = %v %v", recs, errs)
	}
	held.Unlock()
	done, _, err = s.TryUpdate("s", 15, soon, appendText(s))
	if !done || err != nil {
		t.Fatalf("TryUpdate with the lock free: done %v err %v", done, err)
	}
	if got := folded(onDisk(t, s, "s")); got != "10,own,20,30" {
		t.Fatalf("on disk %q; want 10,own,20,30", got)
	}
	if left := spoolLeft(t, s, "s"); len(left) > 0 {
		t.Fatalf("still spooled: %v", left)
	}
	if _, err := os.Stat(spoolDir(filepath.Join(s.Dir(), "s.json"))); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the empty spool is still there: %v", err)
	}
}

// What is spooled while a writer holds the lock is folded by that writer
// once it lets go: the spooler's own try failed, so nobody else would.
func TestWhatCameWhileLockedIsFoldedOnRelease(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	soon := time.Now().Add(time.Second)
	for _, writer := range []string{"TryUpdate", "Update"} {
		t.Run(writer, func(t *testing.T) {
			id := "w-" + writer
			change := func(rec *session.Record, existed bool) bool {
				// Another hook, while this one holds the lock.
				if _, err := s.Append(id, 99, []byte("late"), soon); err != nil {
					t.Error(err)
				}
				return appendText(s)(rec, existed)
			}
			var err error
			if writer == "Update" {
				_, err = s.Update(id, time.Second, change)
			} else {
				var done bool
				done, _, err = s.TryUpdate(id, 1, soon, change)
				if !done {
					t.Fatal("not done")
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := folded(onDisk(t, s, id)); got != "own,late" {
				t.Fatalf("on disk %q; want own,late", got)
			}
			if left := spoolLeft(t, s, id); len(left) > 0 {
				t.Fatalf("still spooled: %v", left)
			}
		})
	}
}

// An entry that does not fold is set aside, said in the note, and never
// blocks the others.
func TestBadEntryIsSetAside(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	soon := time.Now().Add(time.Second)
	held := holdLock(t, s, "b")
	for i, e := range []string{"a", "bad", "c"} {
		if _, err := s.Append("b", int64(i), []byte(e), soon); err != nil {
			t.Fatal(err)
		}
	}
	if rec, _ := s.Load("b"); folded(rec) != "a,c" {
		t.Fatalf("Load = %q", folded(rec))
	}
	held.Unlock()
	note, err := s.Update("b", time.Second, func(*session.Record, bool) bool { return false })
	if err != nil || !strings.Contains(note, "set aside as .bad-") {
		t.Fatalf("note %q err %v", note, err)
	}
	if got := folded(onDisk(t, s, "b")); got != "a,c" {
		t.Fatalf("on disk %q", got)
	}
	if left := spoolLeft(t, s, "b"); len(left) > 0 {
		t.Fatalf("still spooled: %v", left)
	}
	kept, _ := filepath.Glob(filepath.Join(s.Dir(), "b.json.spool", ".bad-*"))
	if len(kept) != 1 {
		t.Fatalf("set aside: %v", kept)
	}
}

// A fold's note reaches the writer that folded the entry for good, not a
// reader (whose fold is in memory, and repeated at every read).
func TestFoldNoteReachesTheWriter(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	held := holdLock(t, s, "n")
	if _, err := s.Append("n", 1, []byte("noted-1"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if rec, _ := s.Load("n"); folded(rec) != "noted-1" {
		t.Fatalf("Load = %q", folded(rec))
	}
	held.Unlock()
	note, err := s.Update("n", time.Second, func(*session.Record, bool) bool { return false })
	if err != nil || strings.Count(note, "folded noted-1") != 1 {
		t.Fatalf("note %q err %v, want the fold's note once", note, err)
	}
}

// Remove takes the spool with the record.
func TestRemoveTakesTheSpool(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	held := holdLock(t, s, "r")
	if _, err := s.Append("r", 1, []byte("x"), time.Now()); err != nil {
		t.Fatal(err)
	}
	held.Unlock()
	if err := s.Remove("r", time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("r"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load after Remove: %v", err)
	}
}

// Writers that never wait, many at once in one process (each try is a lock
// of its own open file, as between processes): every change is in the
// record once they are all done.
func TestNoWaitWritersLoseNothing(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			soon := time.Now().Add(time.Second)
			done, _, err := s.TryUpdate("many", int64(i), soon, func(rec *session.Record, _ bool) bool {
				if rec.Hook == nil {
					rec.Hook = new(session.HookState)
				}
				rec.Hook.EventCount++
				return true
			})
			if err == nil && !done {
				_, err = s.Append("many", int64(i), []byte("e"), soon)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rec, err := s.Load("many")
	if err != nil || rec.Hook == nil || rec.Hook.EventCount != n {
		t.Fatalf("a reader counts %+v %v; want %d", rec.Hook, err, n)
	}
	// Whatever was left once the last helper ran out of time, one more
	// writer folds for good.
	if _, err := s.Update("many", time.Second, func(*session.Record, bool) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if rec := onDisk(t, s, "many"); rec.Hook == nil || rec.Hook.EventCount != n {
		t.Fatalf("on disk %+v; want %d", rec.Hook, n)
	}
}

// An entry being committed (claimed) is not pending for readers: they
// would fold it twice once the record holding it is in place. One a
// writer left claimed when it died is folded by the next writer.
func TestClaimedEntries(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	held := holdLock(t, s, "c")
	for i, e := range []string{"a", "b"} {
		if _, err := s.Append("c", int64(i), []byte(e), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(s.Dir(), "c.json.spool")
	left := spoolLeft(t, s, "c")
	if len(left) != 2 {
		t.Fatalf("spooled: %v", left)
	}
	if err := os.Rename(filepath.Join(dir, left[0]), filepath.Join(dir, claimedPrefix+left[0])); err != nil {
		t.Fatal(err)
	}
	if rec, _ := s.Load("c"); folded(rec) != "b" {
		t.Fatalf("a reader folded %q; want only the unclaimed b", folded(rec))
	}
	held.Unlock()
	if _, err := s.Update("c", time.Second, func(*session.Record, bool) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if got := folded(onDisk(t, s, "c")); got != "a,b" {
		t.Fatalf("on disk %q; want a,b in order", got)
	}
	if left := spoolLeft(t, s, "c"); len(left) > 0 {
		t.Fatalf("still spooled: %v", left)
	}
}

// hasPending sees what pendingEntries would fold, without listing it all:
// a temporary or set-aside file is nothing, a claimed one (a writer died
// mid-commit) is, and so is any entry among many.
func TestHasPending(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.json.spool")
	if hasPending(dir) {
		t.Fatal("no spool: pending")
	}
	os.Mkdir(dir, 0o700)
	for _, n := range []string{".tmp-1", ".bad-00000000000000000001-1-1"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	if hasPending(dir) {
		t.Fatal("only a temporary and a set-aside file: pending")
	}
	os.WriteFile(filepath.Join(dir, claimedPrefix+"00000000000000000002-1-1"), nil, 0o600)
	if !hasPending(dir) {
		t.Fatal("a claimed entry: not pending")
	}
	os.Remove(filepath.Join(dir, claimedPrefix+"00000000000000000002-1-1"))
	for i := range 300 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf(".tmp-%d", i+2)), nil, 0o600)
	}
	os.WriteFile(filepath.Join(dir, "00000000000000000003-1-1"), nil, 0o600)
	if !hasPending(dir) {
		t.Fatal("an entry among 300 temporary files: not pending")
	}
}

// The fold is the store's own, given at construction, not a global: in one
// program a store given none leaves the spool alone (a writer does not fold
// it, a reader does not see it) while one given a fold folds the same spool.
func TestFoldIsGivenToTheStore(t *testing.T) {
	home := t.TempDir()
	with, without := Store{Home: home, Fold: testFold}, Store{Home: home}
	held := holdLock(t, with, "s")
	soon := time.Now().Add(time.Second)
	if _, err := with.Append("s", 10, []byte("10"), soon); err != nil {
		t.Fatal(err)
	}
	if rec, err := with.Load("s"); err != nil || folded(rec) != "10" {
		t.Fatalf("with a fold: Load = %q, %v; want the spooled entry", folded(rec), err)
	}
	if _, err := without.Load("s"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("without a fold: Load err %v; want no record (the spool is not read)", err)
	}
	held.Unlock()
	if _, err := without.Update("s", time.Second, func(*session.Record, bool) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if got := folded(onDisk(t, without, "s")); got != "" {
		t.Fatalf("a writer without a fold folded %q", got)
	}
	if left := spoolLeft(t, without, "s"); len(left) != 1 {
		t.Fatalf("spooled %v; want the entry left for a store with a fold", left)
	}
	if _, err := with.Update("s", time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if got := folded(onDisk(t, with, "s")); got != "10" {
		t.Fatalf("a writer with the fold left %q on disk; want 10", got)
	}
}
