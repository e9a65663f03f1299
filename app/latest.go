package app

import "sync"

// latest hands the newest value from a producer goroutine to the main
// thread, dropping the ones the main thread had no time for: when monitor
// updates come faster than the main queue runs, only the last counts, and
// the main queue holds at most one pending hand-over.
type latest[T any] struct {
	mu      sync.Mutex
	value   T
	pending bool
}

// Put stores v. It returns true when nothing was pending: the caller then
// schedules one Take on the main thread (a false means one is scheduled
// already and will see v).
func (l *latest[T]) Put(v T) (schedule bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.value = v
	schedule = !l.pending
	l.pending = true
	return schedule
}

// Take returns the newest value and whether there was one.
func (l *latest[T]) Take() (T, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.value, l.pending
	var zero T
	l.value, l.pending = zero, false
	return v, ok
}
