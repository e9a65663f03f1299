// Package exitwatch tells when processes exit, by event instead of by
// re-checking: a pidfd per process on Linux (the Go runtime's poller waits
// on it, no thread of its own), one kqueue with EVFILT_PROC/NOTE_EXIT on
// macOS. While the watched processes run, watching costs no CPU at all.
//
// It reports pids, not processes: a caller that knows a process by pid and
// start time adds the pid first and checks the start time after, so an exit
// between the two is never missed (a pid already gone or reused is then
// seen by the check, and a gone one is reported here too).
package exitwatch

import (
	"errors"
	"sync"
)

// ErrUnsupported means this system (or kernel: pidfd needs Linux 5.10 for
// non-blocking pidfds) cannot report exits by event; the caller keeps
// re-checking on a timer.
var ErrUnsupported = errors.New("exitwatch: process exit events are not available on this system")

// ErrClosed is returned by Add after Close.
var ErrClosed = errors.New("exitwatch: watcher closed")

// Watcher reports the exits of the processes added to it, each once, on
// its channel. It is safe for concurrent use.
type Watcher struct {
	mu      sync.Mutex
	watched map[int]*watch
	closed  bool
	exits   chan int
	done    chan struct{}
	os      osWatcher
}

// watch is one added pid; stop ends the OS side's wait for it.
type watch struct{ stop func() }

// New starts a watcher, or returns ErrUnsupported.
func New() (*Watcher, error) {
	w := &Watcher{watched: map[int]*watch{}, exits: make(chan int, 64), done: make(chan struct{})}
	o, err := newOS(w.report)
	if err != nil {
		return nil, err
	}
	w.os = o
	return w, nil
}

// Exits delivers the pid of each watched process that exited (or was
// already gone when added). It is not closed by Close: select on it along
// with your own end.
func (w *Watcher) Exits() <-chan int { return w.exits }

// Add watches pid. Adding a pid that is already watched does nothing. A pid
// with no process is reported on Exits at once.
func (w *Watcher) Add(pid int) error {
	if pid <= 0 {
		return errors.New("exitwatch: not a process id")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	if _, ok := w.watched[pid]; ok {
		return nil
	}
	wt := &watch{}
	w.watched[pid] = wt
	stop, gone, err := w.os.add(pid)
	switch {
	case err != nil:
		delete(w.watched, pid)
		return err
	case gone:
		go w.report(pid) // not under w.mu: report takes it
	default:
		wt.stop = stop
	}
	return nil
}

// Remove stops watching pid; its exit is no longer reported.
func (w *Watcher) Remove(pid int) {
	w.mu.Lock()
	wt, ok := w.watched[pid]
	delete(w.watched, pid)
	w.mu.Unlock()
	if ok && wt.stop != nil {
		wt.stop()
	}
}

// Watching is how many pids are watched.
func (w *Watcher) Watching() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}

// Close stops every watch and the OS side. Exits already queued stay in
// the channel.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	stops := make([]func(), 0, len(w.watched))
	for pid, wt := range w.watched {
		if wt.stop != nil {
			stops = append(stops, wt.stop)
		}
		delete(w.watched, pid)
	}
	w.mu.Unlock()
	close(w.done)
	for _, s := range stops {
		s()
	}
	return w.os.close()
}

// report is called by the OS side when pid exited: it is delivered once,
// and only while the pid is still watched.
func (w *Watcher) report(pid int) {
	w.mu.Lock()
	_, ok := w.watched[pid]
	delete(w.watched, pid)
	w.mu.Unlock()
	if !ok {
		return
	}
	select {
	case w.exits <- pid:
	case <-w.done:
	}
}

// osWatcher is the system's way of waiting for exits.
type osWatcher interface {
	// add starts waiting for pid; gone means there is no such process.
	add(pid int) (stop func(), gone bool, err error)
	close() error
}
