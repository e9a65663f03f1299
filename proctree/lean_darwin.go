package proctree

import (
	"bytes"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Lean reads the process table with sysctl: what the hook uses, because it
// costs microseconds where linking gopsutil costs milliseconds.
type Lean struct {
	WithExe bool // also read the executable path (kern.procargs2)
}

// Get reads one process.
func (l Lean) Get(pid int) (Proc, error) {
	if pid <= 0 {
		return Proc{}, ErrNoProcess
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return Proc{}, kinfoErr(err)
	}
	if int(kp.Proc.P_pid) != pid || kp.Proc.P_stat == sZomb {
		// sysctl answers a missing pid with an empty record; a zombie
		// is dead, only not reaped yet.
		return Proc{}, ErrNoProcess
	}
	p := Proc{
		Pid:     pid,
		PPid:    int(kp.Eproc.Ppid),
		Name:    unix.ByteSliceToString(kp.Proc.P_comm[:]),
		StartMs: kp.Proc.P_starttime.Sec*1000 + int64(kp.Proc.P_starttime.Usec)/1000,
	}
	if l.WithExe {
		p.Exe, _ = exePath(pid)
	}
	return p, nil
}

// exePath reads the executable path from kern.procargs2: an int32 argc
// followed by the NUL-terminated path the process was executed from.
func exePath(pid int) (string, error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return "", err
	}
	if len(buf) < 5 {
		return "", errors.New("short kern.procargs2")
	}
	rest := buf[4:]
	if i := bytes.IndexByte(rest, 0); i > 0 {
		return string(rest[:i]), nil
	}
	return "", errors.New("no path in kern.procargs2")
}

// Tty returns the controlling terminal of pid as a /dev path, or "" when it
// has none. macOS pty slaves are /dev/ttysNNN with NNN the minor number; the
// name is confirmed with stat rather than by scanning /dev.
func Tty(pid int) (string, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", kinfoErr(err)
	}
	dev := kp.Eproc.Tdev
	if dev == -1 || dev == 0 {
		return "", nil
	}
	path := fmt.Sprintf("/dev/ttys%03d", unix.Minor(uint64(uint32(dev))))
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil || int32(st.Rdev) != dev {
		return "", nil
	}
	return path, nil
}

// TicksToUnixMs is Linux-only: on macOS Claude Code's procStart is not in
// clock ticks, so liveness falls back to startedAt.
func TicksToUnixMs(uint64) (int64, bool) { return 0, false }

// sZomb is P_stat of a zombie (<sys/proc.h> SZOMB).
const sZomb = 5

// Zombie reports whether pid is a zombie: dead, not yet reaped.
func Zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && int(kp.Proc.P_pid) == pid && kp.Proc.P_stat == sZomb
}
