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

// BenchmarkPassAfterChange is one pass of Watch after one session's record
// changed, at 10 and 500 sessions: what a change costs in memory (the file
// read aside). Goal: flat in the number of sessions.
func BenchmarkPassAfterChange(b *testing.B) {
	for _, n := range []int{10, 500} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			o := Options{Store: store.Store{Home: b.TempDir()}, Now: time.Now}
			w := newWorld()
			now := time.Now()
			for i := range n {
				id := "s-" + strconv.Itoa(i)
				w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: session.Working, Since: now, At: now, Cwd: "/src/" + id}}
			}
			live := newLiveCache(o)
			w.compute(o, live)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				id := "s-" + strconv.Itoa(i%n)
				st := session.Working
				if i%2 == 0 {
					st = session.Waiting
				}
				at := time.Now()
				w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: st, Since: at, At: at, Cwd: "/src/" + id}}
				w.touch(id)
				shown, _, _ := w.compute(o, live)
				_ = shown
			}
		})
	}
}
