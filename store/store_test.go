package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/session"
)

func bump(rec *session.Record, _ bool) bool {
	if rec.Hook == nil {
		rec.Hook = &session.HookState{}
	}
	rec.Hook.EventCount++
	return true
}

func TestUpdateCreatesPrivateFiles(t *testing.T) {
	s := Store{Home: filepath.Join(t.TempDir(), "mew"), Fold: testFold}
	if _, err := s.Update("abc-1", time.Second, bump); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{s.Home: 0o700, s.Dir(): 0o700, filepath.Join(s.Dir(), "abc-1.json"): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
	rec, err := s.Load("abc-1")
	if err != nil || rec.ID != "abc-1" || rec.Hook.EventCount != 1 || rec.Version != session.RecordVersion || rec.Agent != "claude" {
		t.Fatalf("load: %+v %v", rec, err)
	}
	// A second update goes through the swap path and keeps the mode.
	if _, err := s.Update("abc-1", time.Second, bump); err != nil {
		t.Fatal(err)
	}
	rec, _ = s.Load("abc-1")
	fi, _ := os.Stat(filepath.Join(s.Dir(), "abc-1.json"))
	if rec.Hook.EventCount != 2 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("second update: count %d mode %v", rec.Hook.EventCount, fi.Mode().Perm())
	}
}

func TestHostileIDsNeverBecomePaths(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	for _, id := range []string{"", "../../etc/passwd", "a/b", ".hidden", "a b", "x;rm -rf", "-rf", "é", strings.Repeat("a", 129), "a\x00b", "id.json"} {
		_, err := s.Update(id, time.Second, bump)
		if !errors.Is(err, ErrInvalidID) {
			t.Errorf("Update(%q) err = %v, want ErrInvalidID", id, err)
		}
		if _, err := s.Load(id); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Load(%q) err = %v", id, err)
		}
	}
	if entries, _ := os.ReadDir(s.Dir()); len(entries) != 0 {
		t.Fatalf("files were created: %v", entries)
	}
}

func TestCorruptFileIsSetAsideNotLost(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(), "s1.json")
	os.WriteFile(path, []byte("{not json"), 0o600)

	recs, errs := s.List()
	if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "s1.json") {
		t.Fatalf("List: %v %v", recs, errs)
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Fatal("List changed a corrupt file")
	}
	note, err := s.Update("s1", time.Second, bump)
	if err != nil || !strings.Contains(note, "s1.json.corrupt") {
		t.Fatalf("Update: note %q err %v", note, err)
	}
	if data, _ := os.ReadFile(path + ".corrupt"); string(data) != "{not json" {
		t.Fatal("corrupt bytes not kept")
	}
	if rec, err := s.Load("s1"); err != nil || rec.Hook.EventCount != 1 {
		t.Fatalf("fresh record: %+v %v", rec, err)
	}
}

func TestRecordNamingAnotherSessionIsCorrupt(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	s.Update("s1", time.Second, bump)
	data, _ := os.ReadFile(filepath.Join(s.Dir(), "s1.json"))
	os.WriteFile(filepath.Join(s.Dir(), "s2.json"), data, 0o600)
	if _, err := s.Load("s2"); err == nil || !strings.Contains(err.Error(), `names session "s1"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Update("race", 5*time.Second, bump); err != nil {
				t.Error(err)
			}
		}()
	}
	// Readers without the lock never see a torn record meanwhile.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Load("race"); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("reader: %v", err)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	rec, err := s.Load("race")
	if err != nil || rec.Hook.EventCount != 64 {
		t.Fatalf("count = %d, err %v; want 64", rec.Hook.EventCount, err)
	}
}

func TestLockTimeoutIsBounded(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	s.EnsureDir()
	held := flock.New(filepath.Join(s.Dir(), "busy.json.lock"))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	start := time.Now()
	_, err := s.Update("busy", 150*time.Millisecond, bump)
	if !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("err = %v, want ErrLockTimeout", err)
	}
	// Bounded: a few timeouts, with room for a loaded machine.
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("gave up after %v", d)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "busy.json")); !os.IsNotExist(err) {
		t.Fatal("a record was written without the lock")
	}
	// Once released, the lock is usable again (the abandoned waiter let go).
	held.Unlock()
	if _, err := s.Update("busy", time.Second, bump); err != nil {
		t.Fatal(err)
	}
}

func TestNoChangeWritesNothing(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	s.Update("s1", time.Second, bump)
	path := filepath.Join(s.Dir(), "s1.json")
	before, _ := os.Stat(path)
	time.Sleep(10 * time.Millisecond)
	s.Update("s1", time.Second, func(*session.Record, bool) bool { return false })
	after, _ := os.Stat(path)
	if !before.ModTime().Equal(after.ModTime()) {
		t.Fatal("an unchanged record was rewritten")
	}
}

func TestRemoveAndList(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	for _, id := range []string{"b", "a", "c"} {
		s.Update(id, time.Second, bump)
		s.Update(id, time.Second, bump) // leaves a swap file on Linux
	}
	os.WriteFile(filepath.Join(s.Dir(), "..bad.json"), []byte("{}"), 0o600)
	recs, errs := s.List()
	if len(recs) != 3 || recs[0].ID != "a" || recs[2].ID != "c" {
		t.Fatalf("List = %v", recs)
	}
	if len(errs) != 1 || !errors.Is(errs[0].Err, ErrInvalidID) {
		t.Fatalf("errs = %v", errs)
	}
	if err := s.Remove("b", time.Second); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(s.Dir())
	for _, e := range entries {
		if strings.Contains(e.Name(), "b.json") && !strings.Contains(e.Name(), "bad") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestWriteFileAtomicKeepsModeExact(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFileAtomic(p, []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(data) != "two" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("%q %v", data, fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// A FIFO named like a session file is refused, not waited on: a plain
// open would block until someone writes to it (mew doctor lists the
// store's files).
func TestListRefusesAFIFO(t *testing.T) {
	s := Store{Home: t.TempDir()}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(s.Dir(), "pipe.json"), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan []LoadError, 1)
	go func() { _, errs := s.List(); done <- errs }()
	select {
	case errs := <-done:
		if len(errs) != 1 || errs[0].File != "pipe.json" {
			t.Errorf("errors %v, want pipe.json refused", errs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("List blocked on the FIFO")
	}
}
