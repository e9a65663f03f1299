package proctree

import (
	"bytes"
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// ForegroundGroup returns the foreground process group of pid's terminal
// (the job the terminal's keys go to), 0 when pid has no terminal.
func ForegroundGroup(pid int) (int, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return foregroundOf(pid, err, 0, 0, 0)
	}
	return foregroundOf(pid, nil, kp.Proc.P_pid, kp.Eproc.Tdev, kp.Eproc.Tpgid)
}

// maxCmdline bounds what is read of a command line.
const maxCmdline = 64 << 10

// Cmdline returns pid's arguments, from kern.procargs2: argc, the
// executable path, then argc NUL-terminated arguments.
func Cmdline(pid int) ([]string, error) {
	data, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		if errors.Is(err, unix.ESRCH) || errors.Is(err, unix.EINVAL) {
			return nil, ErrNoProcess
		}
		return nil, err
	}
	if len(data) < 4 {
		return nil, nil
	}
	argc := int(binary.LittleEndian.Uint32(data))
	rest := data[4:]
	if len(rest) > maxCmdline {
		rest = rest[:maxCmdline]
	}
	// Skip the executable path and the NUL padding after it.
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, nil
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	var out []string
	for len(out) < argc && len(rest) > 0 {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			j = len(rest)
		}
		out = append(out, string(rest[:j]))
		if j == len(rest) {
			break
		}
		rest = rest[j+1:]
	}
	return out, nil
}
