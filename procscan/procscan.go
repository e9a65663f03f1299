// Package procscan lists the processes of given names with what a source
// needs to place them: arguments, terminal, working directory, start time.
// It is agent-neutral (Codex's TUI and daemon today; every agent's process
// discovery later) and reads the table through gopsutil; the per-process
// details are read only for the processes whose name is wanted.
package procscan

import (
	"context"

	"github.com/shirou/gopsutil/v3/process"

	"github.com/mew-dev/mew/proctree"
)

// Proc is one process as a scan saw it.
type Proc struct {
	Pid, PPid int
	StartMs   int64    // start time, Unix milliseconds
	Name      string   // short name
	Args      []string // argv
	Tty       string   // controlling terminal ("" for none), e.g. /dev/ttys003
	Cwd       string   // working directory, "" when unreadable
}

// List returns the running processes for which keep(name) is true. A
// process that ends during the scan is left out; zombies (dead, not yet
// reaped by their parent) are too.
func List(ctx context.Context, keep func(name string) bool) ([]Proc, error) {
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return nil, err
	}
	var out []Proc
	for _, pid := range pids {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		p := &process.Process{Pid: pid}
		name, err := p.NameWithContext(ctx)
		if err != nil || !keep(name) {
			continue
		}
		if zombie(ctx, p) {
			continue
		}
		q := Proc{Pid: int(pid), Name: name}
		ppid, err := p.PpidWithContext(ctx)
		if err != nil {
			continue // gone meanwhile
		}
		q.PPid = int(ppid)
		q.StartMs, _ = p.CreateTimeWithContext(ctx)
		q.Args, _ = p.CmdlineSliceWithContext(ctx)
		q.Cwd, _ = p.CwdWithContext(ctx)
		if tty, err := proctree.Tty(int(pid)); err == nil {
			q.Tty = tty
		}
		out = append(out, q)
	}
	return out, nil
}
