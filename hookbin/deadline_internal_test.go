package hookbin

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/store"
)

// The deadline comes just after the hook's write ended, before it could
// note so: the log does not call the event dropped (it is in the record,
// or in the spool when another process held the lock). One that is in
// neither is.
func TestDeadlineSaysDroppedOnlyOfWhatWasDropped(t *testing.T) {
	home := t.TempDir()
	st := store.Store{Home: home, Fold: Fold}
	logPath := filepath.Join(home, "mew-hook.log")
	hook := func(payload string) *Options {
		o := &Options{Stdin: strings.NewReader(payload), Now: time.Now().UTC(), Store: st, Log: &Log{Path: logPath}}
		run(o)
		o.flight.recorded.Store(false) // as if the deadline came first
		return o
	}
	read := func() string { b, _ := os.ReadFile(logPath); return string(b) }

	o := hook(`{"session_id":"rec1","hook_event_name":"Stop"}`)
	o.logDeadline()
	if l := read(); strings.Contains(l, "dropped") {
		t.Errorf("recorded event logged as dropped: %q", l)
	}

	// Spooled: the lock held by another writer.
	p, _ := st.Path("spool1")
	st.EnsureDir()
	lock, err := os.OpenFile(p+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := flockEx(lock); err != nil {
		t.Fatal(err)
	}
	o = hook(`{"session_id":"spool1","hook_event_name":"Stop"}`)
	if left, _ := filepath.Glob(p + ".spool/*"); len(left) != 1 {
		t.Fatalf("spool %v", left)
	}
	o.logDeadline()
	if l := read(); strings.Contains(l, "dropped") {
		t.Errorf("spooled event logged as dropped: %q", l)
	}

	// Really lost: its record was never written.
	o = hook(`{"session_id":"lost1","hook_event_name":"Stop"}`)
	os.Remove(filepath.Join(home, "sessions", "lost1.json"))
	o.logDeadline()
	if l := read(); !strings.Contains(l, "session=lost1 dropped Stop") {
		t.Errorf("lost event not logged: %q", l)
	}
}

func flockEx(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
