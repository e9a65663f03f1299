package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// soon runs f and fails the test if it has not returned within a bound
// far above its cost: a FIFO opened for reading blocks forever.
func soon(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s hangs", what)
	}
}

// One FIFO in a session's spool (where only hooks write entries) is set
// aside like any bad entry: the next writer neither hangs nor loses the
// other entries.
func TestSpoolFIFOIsSetAside(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	until := time.Now().Add(time.Second)
	held := holdLock(t, s, "f")
	for i, e := range []string{"a", "b", "c"} {
		if _, err := s.Append("f", int64(i), []byte(e), until); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := s.Path("f")
	names := pendingEntries(spoolDir(p), true)
	if len(names) != 3 {
		t.Fatalf("spooled %v", names)
	}
	fifo := filepath.Join(spoolDir(p), names[1])
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	held.Unlock()
	var note string
	var err error
	soon(t, "Update with a FIFO in the spool", func() {
		note, err = s.Update("f", time.Second, func(*session.Record, bool) bool { return false })
	})
	if err != nil || !strings.Contains(note, "set aside") {
		t.Fatalf("note %q err %v", note, err)
	}
	if got := folded(onDisk(t, s, "f")); got != "a,c" {
		t.Fatalf("on disk %q", got)
	}
}

// A session file that is a FIFO, or a symlink to /dev/zero, costs a
// reader nothing and a writer starts afresh.
func TestHostileSessionFile(t *testing.T) {
	s := Store{Home: t.TempDir()}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	fifo, _ := s.Path("fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero, _ := s.Path("zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"fifo", "zero"} {
		soon(t, "Load of "+id, func() {
			if _, err := s.Load(id); err == nil {
				t.Errorf("%s: loaded", id)
			}
		})
		soon(t, "Update of "+id, func() {
			if _, err := s.Update(id, time.Second, appendText(s)); err != nil {
				t.Errorf("%s: %v", id, err)
			}
		})
		if got := folded(onDisk(t, s, id)); got != "own" {
			t.Errorf("%s: on disk %q", id, got)
		}
	}
}

// A session's lock file that is a FIFO (or a symlink to one) is opened
// without blocking: the writer takes the lock on it at once instead of
// waiting for a FIFO writer that never comes.
func TestFIFOLockFileDoesNotBlock(t *testing.T) {
	s := Store{Home: t.TempDir(), Fold: testFold}
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "elsewhere")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"fifo", "linked"} {
		p, _ := s.Path(id)
		if id == "fifo" {
			if err := syscall.Mkfifo(p+".lock", 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Symlink(fifo, p+".lock"); err != nil {
			t.Fatal(err)
		}
		var err error
		// A minute's lock timeout: the old open blocked past soon's bound.
		soon(t, "Update with a FIFO lock file ("+id+")", func() { _, err = s.Update(id, time.Minute, appendText(s)) })
		if id == "fifo" && err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if id == "linked" && err == nil {
			t.Errorf("%s: a symlinked lock file was followed", id)
		}
	}
}
