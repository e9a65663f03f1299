package proctree

import (
	"errors"
	"syscall"
)

// kinfoErr is the error of a kern.proc.pid lookup (Lean on macOS). For a
// pid that is gone, sysctl succeeds with no record, and x/sys's
// SysctlKinfoProc turns the short answer into EIO: that is "no such
// process", not a failure to read (liveness would otherwise keep a dead
// session "unknown" instead of exited).
func kinfoErr(err error) error {
	if errors.Is(err, syscall.EIO) || errors.Is(err, syscall.ESRCH) {
		return ErrNoProcess
	}
	return err
}
