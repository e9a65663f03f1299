package monitor

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A pass after a few stored records changed (the common pass: a hook
// wrote) hands out what a full pass over every record would: the same
// list, the same records, the same "changed", through random changes
// (states, times, hand-back holds ending, sessions coming and going,
// exited ones forgotten, a source's report, liveness dropped), and the
// sessions it did not recombine are the same entries as before.
func TestQuickPassIsAFullPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	now := base.Add(time.Hour)
	clock := func() time.Time { return now }
	quick, full := newWorld(), newWorld()
	oq := Options{Store: store.Store{Home: t.TempDir()}, Now: clock, ForgetAfter: 50 * time.Minute}
	of := Options{Store: store.Store{Home: t.TempDir()}, Now: clock, ForgetAfter: 50 * time.Minute}
	lq, lf := newLiveCache(oq), newLiveCache(of)
	states := []session.State{session.Working, session.Waiting, session.Done, session.Idle, session.Exited}
	both := func(f func(w *world)) { f(quick); f(full) }
	put := func(id string) {
		since := now.Add(-time.Duration(rng.IntN(60)) * time.Minute)
		h := &session.HookState{State: states[rng.IntN(len(states))], Since: since, At: since, Cwd: "/src/" + id}
		if h.State == session.Working && rng.IntN(3) == 0 {
			h.HandBack = now.Add(-session.HandBackHold + time.Duration(rng.IntN(3000))*time.Millisecond)
		}
		both(func(w *world) {
			w.recs[id] = session.Record{ID: id, Hook: h}
			w.touch(id)
		})
	}
	for i := range 30 {
		put("s-" + strconv.Itoa(i))
	}
	var last []*session.Shown
	quickPasses := 0
	for pass := range 3000 {
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		for range rng.IntN(3) {
			id := "s-" + strconv.Itoa(rng.IntN(40))
			switch rng.IntN(12) {
			case 0:
				both(func(w *world) { delete(w.recs, id); w.touch(id) })
			case 1:
				both(func(w *world) { w.obsGen++ })
			case 2:
				lq.forget()
				lf.forget()
			default:
				put(id)
			}
		}
		full.settled = false // always the whole pass
		fs, fr, _ := full.compute(of, lf)
		qs, qr, _ := quick.compute(oq, lq)
		if quick.quick {
			quickPasses++
		}
		if !reflect.DeepEqual(Values(qs), Values(fs)) {
			t.Fatalf("pass %d (quick %v): list\n got %v\nwant %v", pass, quick.quick, ids(Values(qs)), ids(Values(fs)))
		}
		if !reflect.DeepEqual(Values(qr), Values(fr)) {
			t.Fatalf("pass %d (quick %v): the records differ", pass, quick.quick)
		}
		if pass > 0 && quick.changed != full.changed {
			t.Fatalf("pass %d (quick %v): changed %v, a full pass says %v", pass, quick.quick, quick.changed, full.changed)
		}
		if quick.quick && last != nil {
			prev := map[string]*session.Shown{}
			for _, s := range last {
				prev[s.ID] = s
			}
			for _, s := range qs {
				if p := prev[s.ID]; p != nil && p != s && reflect.DeepEqual(*p, *s) {
					t.Fatalf("pass %d: %s is unchanged but a new entry", pass, s.ID)
				}
			}
		}
		last = qs
	}
	if quickPasses < 300 {
		t.Fatalf("only %d of 3000 passes were quick", quickPasses)
	}
}

// A pass after one session changed allocates for what changed, not a copy
// of every session: at 2,000 sessions, well under the 424 bytes a session
// that a new list of values took (plus the records' 96).
func TestPassAfterOneChangeCopiesNoSession(t *testing.T) {
	const n = 2000
	o := Options{Store: store.Store{Home: t.TempDir()}, Now: time.Now}
	w := newWorld()
	now := time.Now()
	for i := range n {
		id := "s-" + strconv.Itoa(i)
		w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: session.Working, Since: now, At: now, Cwd: "/src/" + id}}
	}
	live := newLiveCache(o)
	w.compute(o, live)
	const passes = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range passes {
		id := "s-" + strconv.Itoa(i*37%n)
		at := time.Now()
		st := session.Waiting
		if i%2 == 0 {
			st = session.Done
		}
		w.recs[id] = session.Record{ID: id, Hook: &session.HookState{State: st, Since: at, At: at, Cwd: "/src/" + id}}
		w.touch(id)
		w.compute(o, live)
	}
	runtime.ReadMemStats(&after)
	perSession := float64(after.TotalAlloc-before.TotalAlloc) / passes / n
	if perSession > 48 {
		t.Fatalf("a pass after one change allocated %.0f bytes a session", perSession)
	}
}
