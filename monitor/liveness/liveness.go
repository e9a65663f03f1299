// Package liveness decides whether a session's agent process still runs:
// pid plus start time, so a dead session never lingers and a reused pid
// never revives one.
package liveness

import (
	"errors"
	"strconv"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

// State is what the process check found.
type State int

const (
	// Unknown: nothing to check (no pid recorded) or the check failed; the
	// sources decide.
	Unknown State = iota
	Alive
	// Dead: the pid is gone, or now belongs to a process that started at
	// another time (pid reuse).
	Dead
)

// startSlack absorbs clock rounding between the registry's startedAt and the
// process start time the OS reports.
const startSlack = 2 * time.Second

// Checker checks records against a process table.
type Checker struct {
	Procs proctree.Table
	// TicksToMs converts a Linux procStart (clock ticks since boot) to Unix
	// milliseconds; nil where procStart has another meaning.
	TicksToMs func(ticks uint64) (int64, bool)
}

// Check returns the liveness of rec's agent process. Claude Code's own pid
// (registry) is preferred; the hook's record, then the screen's, are used
// otherwise.
func (c Checker) Check(rec session.Record) State {
	if r := rec.Registry; r != nil && r.Pid > 0 {
		return c.checkRegistry(r)
	}
	if p := rec.Process; p != nil && p.Pid > 0 {
		alive, err := proctree.SameProcess(c.Procs, p.Pid, p.StartMs)
		return verdict(alive, err)
	}
	if s := rec.Screen; s != nil && s.Pid > 0 {
		alive, err := proctree.SameProcess(c.Procs, s.Pid, s.StartMs)
		return verdict(alive, err)
	}
	return Unknown
}

func (c Checker) checkRegistry(r *session.RegistryState) State {
	// procStart is exact where it can be read (Linux: clock ticks).
	if c.TicksToMs != nil && r.ProcStart != "" {
		if ticks, err := strconv.ParseUint(r.ProcStart, 10, 64); err == nil {
			if ms, ok := c.TicksToMs(ticks); ok {
				alive, err := proctree.SameProcess(c.Procs, r.Pid, ms)
				return verdict(alive, err)
			}
		}
	}
	p, err := c.Procs.Get(r.Pid)
	if errors.Is(err, proctree.ErrNoProcess) {
		return Dead
	}
	if err != nil {
		return Unknown
	}
	// Elsewhere: the process must have started before the session did; one
	// that started later is a new process that reused the pid.
	if !r.StartedAt.IsZero() && p.StartMs != 0 && time.UnixMilli(p.StartMs).After(r.StartedAt.Add(startSlack)) {
		return Dead
	}
	return Alive
}

func verdict(alive bool, err error) State {
	switch {
	case err != nil:
		return Unknown
	case alive:
		return Alive
	}
	return Dead
}
