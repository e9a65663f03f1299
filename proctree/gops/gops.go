// Package gops is the process table read through gopsutil/v3, used by the
// app and the jump planner. The hook does not link it: gopsutil's import
// alone costs ~1.4 ms per process start (measured), more than the hook's
// whole budget, so the hook reads the same table with proctree.Lean.
package gops

import (
	"errors"
	"os"

	"github.com/shirou/gopsutil/v3/process"

	"github.com/mew-dev/mew/proctree"
)

// Table is the machine's process table, read through gopsutil.
type Table struct {
	// WithExe also reads executable paths (a little slower; needed for
	// host detection, not for liveness).
	WithExe bool
}

// Get reads one process.
func (s Table) Get(pid int) (proctree.Proc, error) {
	if pid <= 0 || pid > 1<<30 || proctree.Zombie(pid) {
		// A zombie is dead: it only waits for its parent to reap it.
		return proctree.Proc{}, proctree.ErrNoProcess
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		if errors.Is(err, process.ErrorProcessNotRunning) || errors.Is(err, os.ErrNotExist) {
			return proctree.Proc{}, proctree.ErrNoProcess
		}
		return proctree.Proc{}, err
	}
	out := proctree.Proc{Pid: pid}
	ppid, err := p.Ppid()
	if err != nil {
		if !exists(pid) {
			return proctree.Proc{}, proctree.ErrNoProcess
		}
		return proctree.Proc{}, err
	}
	out.PPid = int(ppid)
	out.Name, _ = p.Name()
	out.StartMs, _ = p.CreateTime()
	if s.WithExe {
		out.Exe, _ = p.Exe()
	}
	return out, nil
}

func exists(pid int) bool {
	ok, err := process.PidExists(int32(pid))
	return err == nil && ok
}
