package procscan

import (
	"context"

	"github.com/shirou/gopsutil/v3/process"
)

// zombie reads the process state (/proc/<pid>/status): a process killed
// whose parent has not reaped it yet still has a pid.
func zombie(ctx context.Context, p *process.Process) bool {
	st, err := p.StatusWithContext(ctx)
	return err == nil && len(st) > 0 && st[0] == process.Zombie
}
