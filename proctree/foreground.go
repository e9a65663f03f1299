package proctree

import "fmt"

// foregroundOf is ForegroundGroup on macOS from its kern.proc.pid answer
// (err, the record's pid, its terminal device and the terminal's
// foreground group): a pid that is gone is ErrNoProcess (x/sys turns the
// empty answer into a raw EIO, "input/output error", which said nothing
// to a reader of the log), any other failure names the pid.
func foregroundOf(pid int, err error, recPid, tdev, tpgid int32) (int, error) {
	if err != nil {
		return 0, fmt.Errorf("the terminal's foreground job of process %d: %w", pid, kinfoErr(err))
	}
	if recPid == 0 {
		return 0, fmt.Errorf("the terminal's foreground job of process %d: %w", pid, ErrNoProcess)
	}
	if tdev == -1 || tpgid <= 0 {
		return 0, nil
	}
	return int(tpgid), nil
}
