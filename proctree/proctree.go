// Package proctree reads the process tree: which process is the agent a hook
// runs under, when it started, its terminal, and its ancestors. The walking
// logic works on a Table interface so it is tested with fake process tables;
// Lean is the real one for the hook; proctree/gops reads it with gopsutil.
package proctree

import (
	"errors"
	"path/filepath"
	"strings"
)

// Proc is what Mew needs to know of one process.
type Proc struct {
	Pid     int
	PPid    int
	Name    string // short command name
	Exe     string // executable path, when readable
	StartMs int64  // start time, Unix milliseconds (locale-independent)
	// StartTicks is the Linux start time in clock ticks since boot, the
	// unit of Claude Code's procStart there; 0 elsewhere.
	StartTicks uint64
}

// Table looks processes up by pid.
type Table interface {
	Get(pid int) (Proc, error)
}

// ErrNoProcess means the pid does not exist (any more).
var ErrNoProcess = errors.New("no such process")

// maxDepth bounds every walk up the tree; real trees are shallow and a
// corrupt table must not loop forever.
const maxDepth = 64

// IsShell reports whether a process name is one of the shells Claude Code
// (and people) run hooks through; login shells start with '-'. A switch,
// not a map: a package-level map is built at every start of the hook.
func IsShell(name string) bool {
	switch strings.TrimPrefix(filepath.Base(name), "-") {
	case "sh", "bash", "zsh", "dash", "fish", "ksh", "mksh", "tcsh", "csh", "ash", "busybox", "nu":
		return true
	}
	return false
}

// Agent returns the nearest ancestor of pid that is not a shell: the agent
// process a hook runs under (Claude Code runs hooks through `sh -c`).
func Agent(t Table, pid int) (Proc, error) {
	p, err := t.Get(pid)
	if err != nil {
		return Proc{}, err
	}
	for range maxDepth {
		if p.PPid <= 1 {
			return Proc{}, errors.New("no agent process above the hook")
		}
		parent, err := t.Get(p.PPid)
		if err != nil {
			return Proc{}, err
		}
		if !IsShell(parent.Name) && !IsShell(parent.Exe) {
			return parent, nil
		}
		p = parent
	}
	return Proc{}, errors.New("process tree too deep")
}

// Ancestors lists the processes above pid, nearest first, up to (not
// including) pid 1. A lookup failure ends the list early.
func Ancestors(t Table, pid int) []Proc {
	var out []Proc
	p, err := t.Get(pid)
	if err != nil {
		return nil
	}
	for range maxDepth {
		if p.PPid <= 1 || p.PPid == p.Pid {
			break
		}
		parent, err := t.Get(p.PPid)
		if err != nil {
			break
		}
		out = append(out, parent)
		p = parent
	}
	return out
}

// SameProcess reports whether the process now at pid is the one that was
// recorded with startMs: a reused pid has another start time. A tolerance
// absorbs rounding between sources; pids are not reused within a second.
func SameProcess(t Table, pid int, startMs int64) (alive bool, err error) {
	p, err := t.Get(pid)
	if errors.Is(err, ErrNoProcess) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if startMs == 0 || p.StartMs == 0 {
		return true, nil
	}
	d := p.StartMs - startMs
	return d > -1000 && d < 1000, nil
}
