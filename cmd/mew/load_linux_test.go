package main

import (
	"math/rand"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// BenchmarkStatusWatchLoad is `mew status --watch` under load: 500
// sessions, 50 state changes a second (each one a session file rewritten
// under its lock, as the hook does). It reports the watcher's CPU time in
// % of one core (goal ≤ 10 %) and change → printed line, median and p95
// (goal p95 ≤ 100 ms).
//
//	go test ./cmd/mew -run '^$' -bench StatusWatchLoad -benchtime 1x
//
// MEW_BENCH_LOAD_SECONDS sets the measured window (default 10).
func BenchmarkStatusWatchLoad(b *testing.B) {
	const sessions, perSecond = 500, 50
	window := 10 * time.Second
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_LOAD_SECONDS")); err == nil && s > 0 {
		window = time.Duration(s) * time.Second
	}
	c := newCLI(b)
	st := store.Store{Home: c.home, Fold: hookbin.Fold}
	set := func(id string, state session.State, reason session.Reason) {
		now := time.Now().UTC()
		_, err := st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
			if rec.Hook == nil {
				rec.Hook = &session.HookState{Cwd: "/src/" + id}
			}
			rec.Hook.State, rec.Hook.Reason, rec.Hook.Since, rec.Hook.At = state, reason, now, now
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = "load-" + strconv.Itoa(i)
		set(ids[i], session.Working, "")
	}
	w := c.watch(b)
	for range sessions {
		w.next(b, 30*time.Second)
	}
	time.Sleep(time.Second)

	var mu sync.Mutex
	sent := map[string]time.Time{} // id → when its latest change was written
	var lat []time.Duration
	done := make(chan struct{})
	go func() {
		for {
			select {
			case m, ok := <-w.lines:
				if !ok {
					return
				}
				id, _ := m["id"].(string)
				mu.Lock()
				if t0, ok := sent[id]; ok {
					lat = append(lat, time.Since(t0))
					delete(sent, id)
				}
				mu.Unlock()
			case <-done:
				return
			}
		}
	}()
	rng := rand.New(rand.NewSource(1))
	waiting := map[string]bool{}
	b.ResetTimer()
	for range b.N {
		before := cpuNanos(b, w.cmd.Process.Pid)
		tick := time.NewTicker(time.Second / perSecond)
		end := time.Now().Add(window)
		for time.Now().Before(end) {
			<-tick.C
			id := ids[rng.Intn(sessions)]
			mu.Lock()
			if _, pending := sent[id]; pending {
				mu.Unlock()
				continue // its line has not come yet: one change at a time per session
			}
			sent[id] = time.Now()
			mu.Unlock()
			if waiting[id] = !waiting[id]; waiting[id] {
				set(id, session.Waiting, session.ReasonPermission)
			} else {
				set(id, session.Working, "")
			}
		}
		tick.Stop()
		used := cpuNanos(b, w.cmd.Process.Pid) - before
		b.ReportMetric(float64(used)/float64(window.Nanoseconds())*100, "%cpu")
	}
	b.StopTimer()
	time.Sleep(500 * time.Millisecond)
	close(done)
	mu.Lock()
	defer mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no change reached the watcher")
	}
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat)), "changes")
	b.ReportMetric(float64(len(sent)), "missing")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
