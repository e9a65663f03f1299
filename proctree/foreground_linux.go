package proctree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ForegroundGroup returns the foreground process group of pid's terminal
// (the job the terminal's keys go to), 0 when pid has no terminal.
func ForegroundGroup(pid int) (int, error) {
	st, err := readStat(pid)
	if err != nil {
		return 0, err
	}
	if st.ttyNr == 0 || st.tpgid <= 0 {
		return 0, nil
	}
	return st.tpgid, nil
}

// maxCmdline bounds what is read of a command line.
const maxCmdline = 64 << 10

// Cmdline returns pid's arguments.
func Cmdline(pid int) ([]string, error) {
	if pid <= 0 {
		return nil, ErrNoProcess
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoProcess
		}
		return nil, err
	}
	if len(data) > maxCmdline {
		data = data[:maxCmdline]
	}
	data = bytes.TrimRight(data, "\x00")
	if len(data) == 0 {
		return nil, nil // a kernel thread or a zombie
	}
	parts := bytes.Split(data, []byte{0})
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out, nil
}
