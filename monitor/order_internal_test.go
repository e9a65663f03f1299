package monitor

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A pass sorts only the sessions that changed and merges them into the
// last pass's order: its list is always the whole list sorted, and it says
// whether the list changed exactly when it differs from the last one. Many
// passes of random changes (states, times, sessions coming and going, a
// source's report that recombines every session, exited sessions past
// ForgetAfter).
func TestComputeKeepsTheOrderOfAFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	o := Options{Store: store.Store{Home: t.TempDir()}, Now: func() time.Time { return base.Add(time.Hour) }, ForgetAfter: 50 * time.Minute}
	w := newWorld()
	live := newLiveCache(o)
	states := []session.State{session.Working, session.Waiting, session.Done, session.Idle, session.Failed, session.Exited}
	put := func(id string) {
		since := base.Add(time.Duration(rng.IntN(90)) * time.Minute)
		if rng.IntN(4) == 0 {
			since = base // ties on time: the id decides
		}
		w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: states[rng.IntN(len(states))], Since: since, At: since, Cwd: "/src/" + id}}
		w.touch(id)
	}
	for i := range 40 {
		put("s-" + strconv.Itoa(i))
	}
	var last []*session.Shown
	for pass := range 2000 {
		for range rng.IntN(4) {
			id := "s-" + strconv.Itoa(rng.IntN(60))
			switch rng.IntN(6) {
			case 0:
				delete(w.recs, id)
				w.touch(id)
			case 1:
				w.obsGen++ // every session combined again, most the same
			default:
				put(id)
			}
		}
		shown, _, _ := w.compute(o, live)
		want := Values(shown)
		Sort(want)
		if !reflect.DeepEqual(Values(shown), want) {
			t.Fatalf("pass %d: the list is not sorted:\n got %v\nwant %v", pass, ids(Values(shown)), ids(want))
		}
		if differs := !reflect.DeepEqual(shown, last); w.changed != differs && pass > 0 {
			t.Fatalf("pass %d: changed %v, but the list differs from the last: %v", pass, w.changed, differs)
		}
		last = shown
	}
}

func ids(s []session.Shown) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.ID + ":" + string(x.State)
	}
	return out
}
