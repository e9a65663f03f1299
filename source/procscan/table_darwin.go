package procscan

import (
	"time"

	"golang.org/x/sys/unix"
)

// newTableReader: one sysctl reads the whole table; nothing to keep.
func newTableReader(func(pid int) bool, func() time.Time) func() ([]entry, error) { return readTable }

// readTable reads every process in one sysctl (kern.proc.all): name,
// parent, state, terminal, start time and owner.
func readTable() ([]entry, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(kps))
	for i := range kps {
		kp := &kps[i]
		if kp.Proc.P_pid <= 0 {
			continue
		}
		out = append(out, entry{
			pid: int(kp.Proc.P_pid), ppid: int(kp.Eproc.Ppid),
			name:    unix.ByteSliceToString(kp.Proc.P_comm[:]),
			startMs: kp.Proc.P_starttime.Sec*1000 + int64(kp.Proc.P_starttime.Usec)/1000,
			zombie:  kp.Proc.P_stat == 5, // SZOMB
			tty:     kp.Eproc.Tdev != -1 && kp.Eproc.Tdev != 0,
			uid:     int(kp.Eproc.Ucred.Uid),
		})
	}
	return out, nil
}

// owner is read with the table on macOS.
func owner(int) int { return -1 }
