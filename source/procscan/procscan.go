// Package procscan lists the processes of given names with what a source
// needs to place them: arguments, terminal, working directory, start time.
// It is agent-neutral (Codex's TUI and daemon, every agent's process
// discovery); the per-process details are read only for the processes
// whose name is wanted.
package procscan

import (
	"context"

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

// List returns the running processes for which keep(name) is true, from
// the same table read as the source's; the details are read only for the
// processes kept. A process that ends during the scan is left out;
// zombies (dead, not yet reaped by their parent) are too.
func List(ctx context.Context, keep func(name string) bool) ([]Proc, error) {
	table, err := readTable()
	if err != nil {
		return nil, err
	}
	var out []Proc
	for _, e := range table {
		if e.zombie || !keep(e.name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		args, err := proctree.Cmdline(e.pid)
		if err != nil {
			continue // gone meanwhile
		}
		q := Proc{Pid: e.pid, PPid: e.ppid, StartMs: e.startMs, Name: e.name, Args: args, Cwd: cwd(e.pid)}
		if tty, err := proctree.Tty(e.pid); err == nil {
			q.Tty = tty
		}
		out = append(out, q)
	}
	return out, nil
}
