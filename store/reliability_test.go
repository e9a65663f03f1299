package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/session"
)

// Every corrupt file is kept: a second one must not overwrite the copy set
// aside from the first.
func TestEveryCorruptFileIsKept(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(), "s1.json")
	bad := []string{"{first", "{second", "{third"}
	for _, b := range bad {
		os.WriteFile(path, []byte(b), 0o600)
		note, err := s.Update("s1", time.Second, bump)
		if err != nil || !strings.Contains(note, "s1.json.corrupt") {
			t.Fatalf("Update: note %q err %v", note, err)
		}
	}
	kept := map[string]bool{}
	names, _ := filepath.Glob(path + ".corrupt*")
	for _, n := range names {
		data, _ := os.ReadFile(n)
		kept[string(data)] = true
	}
	for _, b := range bad {
		if !kept[b] {
			t.Errorf("corrupt content %q was not kept (set aside: %v)", b, names)
		}
	}
	if rec, err := s.Load("s1"); err != nil || rec.Hook.EventCount != 1 {
		t.Fatalf("fresh record: %+v %v", rec, err)
	}
}

// Remove runs while other writers wait on the session's lock: they must
// still take turns. Removing the lock file under a waiter used to let the
// waiter (holding the old, unlinked file's lock) and a newcomer (a new lock
// file) change the session at the same time.
func TestRemoveKeepsWritersExclusive(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	var inside, overlaps, updates atomic.Int32
	change := func(rec *session.Record, existed bool) bool {
		if inside.Add(1) != 1 {
			overlaps.Add(1)
		}
		time.Sleep(200 * time.Microsecond)
		inside.Add(-1)
		updates.Add(1)
		return bump(rec, existed)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Update("busy", 5*time.Second, change); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 100 {
		if err := s.Remove("busy", 5*time.Second); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if n := overlaps.Load(); n > 0 {
		t.Fatalf("%d of %d updates ran while another held the lock", n, updates.Load())
	}
}

// A writer waiting for a lock that changes hands (other writers finishing
// their turns) keeps waiting past the timeout: the timeout is for a lock
// that makes no progress. The wait is still bounded.
func TestLockWaitGoesOnWhileOthersProgress(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	if _, err := s.Update("busy", time.Second, bump); err != nil {
		t.Fatal(err)
	}
	// The timeout is long next to the holder's steps, so a loaded machine
	// that runs the holder late still shows progress within each timeout.
	const timeout = 1500 * time.Millisecond
	held := flock.New(filepath.Join(s.Dir(), "busy.json.lock"))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	// The holder stands for a queue of writers: the record changes every
	// 400 ms for well over a timeout, then the lock is free.
	holderDone := make(chan struct{})
	go func() {
		defer close(holderDone)
		defer held.Unlock()
		for range 6 {
			time.Sleep(400 * time.Millisecond)
			rec, err := s.Load("busy")
			if err != nil {
				t.Error(err)
				return
			}
			bump(&rec, true)
			if err := writeRecord(filepath.Join(s.Dir(), "busy.json"), &rec); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	start := time.Now()
	_, err := s.Update("busy", timeout, bump)
	<-holderDone
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
	if rec, _ := s.Load("busy"); rec.Hook.EventCount != 8 {
		t.Fatalf("event count %d, want 8", rec.Hook.EventCount)
	}

	// Progress or not, the wait ends: a holder that writes forever.
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			rec, _ := s.Load("busy")
			bump(&rec, true)
			writeRecord(filepath.Join(s.Dir(), "busy.json"), &rec)
		}
	}()
	start = time.Now()
	_, err = s.Update("busy", timeout, bump)
	if !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("err = %v, want ErrLockTimeout", err)
	}
	if d := time.Since(start); d < 2*timeout || d > 10*timeout {
		t.Fatalf("gave up after %v; want a few timeouts", d)
	}
}
