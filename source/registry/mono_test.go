package registry

import (
	"testing"
	"time"
)

// ObserveMono puts the status's own time on the monotonic clock, so it
// orders against hook events (combine) whatever the wall clock does.
func TestObserveMonoPlacesTheStatus(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	const seen = int64(9000 * time.Second) // the monotonic clock at the first reading
	doc := Doc{SessionID: "s", Pid: 7, Status: "waiting", StatusAt: t0}

	// Read 60 ms after Claude Code set it (fsnotify lag): the status sits
	// 60 ms before the reading, so a hook event 30 ms after the status
	// (and 30 ms before the reading) is still the newer.
	r := ObserveMono(nil, doc, "7.json", t0.Add(60*time.Millisecond), seen)
	if want := seen - int64(60*time.Millisecond); r.AtMono != want {
		t.Fatalf("AtMono = %d, want %d", r.AtMono, want)
	}
	// The wall clock steps back an hour; the same status read again keeps
	// its place (re-deriving it would put it an hour later).
	again := ObserveMono(&r, doc, "7.json", t0.Add(-time.Hour+5*time.Second), seen+int64(5*time.Second))
	if again.AtMono != r.AtMono {
		t.Fatalf("re-read moved the status: %d, was %d", again.AtMono, r.AtMono)
	}
	// A new status set after the step is placed from the new wall times.
	busy := Doc{SessionID: "s", Pid: 7, Status: "busy", StatusAt: t0.Add(-time.Hour + 6*time.Second)}
	next := ObserveMono(&again, busy, "7.json", t0.Add(-time.Hour+6*time.Second+20*time.Millisecond), seen+int64(6*time.Second+20*time.Millisecond))
	if want := seen + int64(6*time.Second); next.AtMono != want {
		t.Fatalf("after the step: AtMono = %d, want %d", next.AtMono, want)
	}
	// A status that claims to come after its reading (the clock stepped
	// back between the write and the read) is placed at the reading.
	future := ObserveMono(nil, doc, "7.json", t0.Add(-time.Hour), seen)
	if future.AtMono != seen {
		t.Fatalf("future status: AtMono = %d, want the reading %d", future.AtMono, seen)
	}
	// Without a monotonic reading nothing is claimed.
	if r := Observe(nil, doc, "7.json", t0); r.AtMono != 0 {
		t.Fatalf("Observe: AtMono = %d", r.AtMono)
	}
}
