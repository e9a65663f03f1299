package monitor

import (
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// BenchmarkCompute is one pass of Watch over 500 sessions held in memory
// (what every change costs once the changed file is read).
func BenchmarkCompute(b *testing.B) {
	o := Options{Store: store.Store{Home: b.TempDir(), Fold: hookbin.Fold}, Now: time.Now}
	w := newWorld()
	now := time.Now()
	for i := range 500 {
		id := "s-" + strconv.Itoa(i)
		w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: session.Working, Since: now, At: now, Cwd: "/src/" + id}}
	}
	live := newLiveCache(o)
	b.ReportAllocs()
	for b.Loop() {
		w.compute(o, live)
	}
}
