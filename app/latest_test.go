package app

import (
	"sync"
	"testing"
)

func TestLatestKeepsNewestAndSchedulesOnce(t *testing.T) {
	var l latest[int]
	if _, ok := l.Take(); ok {
		t.Fatal("empty mailbox gave a value")
	}
	if !l.Put(1) {
		t.Fatal("first Put must ask for a hand-over")
	}
	if l.Put(2) || l.Put(3) {
		t.Fatal("a hand-over is already scheduled")
	}
	if v, ok := l.Take(); !ok || v != 3 {
		t.Fatalf("Take = %d %v, want the newest, 3", v, ok)
	}
	if _, ok := l.Take(); ok {
		t.Fatal("taken twice")
	}
	if !l.Put(4) {
		t.Fatal("after a Take, the next Put schedules again")
	}
}

// A producer and a consumer that takes whenever told: the consumer always
// ends with the last value, and hand-overs never exceed the puts.
func TestLatestConcurrent(t *testing.T) {
	var l latest[int]
	const n = 10000
	schedule := make(chan struct{}, n)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= n; i++ {
			if l.Put(i) {
				schedule <- struct{}{}
			}
		}
		close(schedule)
	}()
	last, takes := 0, 0
	for range schedule {
		if v, ok := l.Take(); ok {
			if v <= last {
				t.Fatalf("went back from %d to %d", last, v)
			}
			last = v
			takes++
		}
	}
	wg.Wait()
	if v, ok := l.Take(); ok {
		last = v
	}
	if last != n {
		t.Fatalf("last value seen %d, want %d", last, n)
	}
	if takes == 0 || takes > n {
		t.Fatalf("%d takes", takes)
	}
}
