package store

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Every corrupt file is kept: a second one must not overwrite the copy set
// aside from the first.
func TestEveryCorruptFileIsKept(t *testing.T) {
	s := Store{Home: t.TempDir()}
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
	s := Store{Home: t.TempDir()}
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
