package monitor

import (
	"time"

	"github.com/mew-dev/mew/monitor/liveness/exitwatch"
	"github.com/mew-dev/mew/session"
)

// slowTick is Watch's re-check when process exits come by event
// (exitwatch): only a safety net for a missed file event, a liveness
// verdict that could not be read, and forgetting exited sessions. Idle, the
// watch then costs almost nothing (README "Measured").
const slowTick = 60 * time.Second

// exitEvents tells Watch when an agent process exits, so liveness is not
// re-read every second. Where exits cannot come by event (no pidfd, a pid
// the kernel refuses to watch), Watch keeps its one-second tick.
type exitEvents struct {
	w       *exitwatch.Watcher // nil: unsupported
	watched map[int]bool
	failed  map[int]bool // pids that could not be watched
	now     map[int]bool // follow's scratch, kept: it runs every pass
}

func newExitEvents() *exitEvents {
	e := &exitEvents{watched: map[int]bool{}, failed: map[int]bool{}, now: map[int]bool{}}
	if w, err := exitwatch.New(); err == nil {
		e.w = w
	}
	return e
}

// exits delivers the pid of each watched process that exited; nil (never
// ready) when unsupported.
func (e *exitEvents) exits() <-chan int {
	if e.w == nil {
		return nil
	}
	return e.w.Exits()
}

// follow watches the agent processes of recs that may still run (and
// stops watching the ones no such record names any more). Called after each
// pass: a process that exited between its liveness check and here is
// reported at once. A record whose process is known dead is not followed:
// exitwatch would report its pid gone at once, which forces another pass,
// which would add it again (an exited session listed for its 30 minutes
// must cost nothing).
func (e *exitEvents) follow(recs []*session.Record, dead func(session.Record) bool) {
	if e.w == nil {
		return
	}
	now := e.now
	clear(now)
	for _, r := range recs {
		if pid := pidOf(*r); pid > 0 && !dead(*r) {
			now[pid] = true
		}
	}
	for pid := range e.watched {
		if !now[pid] {
			e.w.Remove(pid)
			delete(e.watched, pid)
		}
	}
	for pid := range e.failed {
		if !now[pid] {
			delete(e.failed, pid)
		}
	}
	for pid := range now {
		if e.watched[pid] {
			continue
		}
		if err := e.w.Add(pid); err != nil {
			e.failed[pid] = true
			continue
		}
		delete(e.failed, pid)
		e.watched[pid] = true
	}
}

// exited forgets pid (it is reported once).
func (e *exitEvents) exited(pid int) { delete(e.watched, pid) }

// interval is how often Watch must re-check by itself.
func (e *exitEvents) interval() time.Duration {
	if e.w == nil || len(e.failed) > 0 {
		return tick
	}
	return slowTick
}

func (e *exitEvents) close() {
	if e.w != nil {
		e.w.Close()
	}
}

// forgetPid drops the verdicts about pid: the next pass reads it again.
func (c *liveCache) forgetPid(pid int) {
	c.gen++
	for k := range c.known {
		if k.pid == pid {
			delete(c.known, k)
		}
	}
}
