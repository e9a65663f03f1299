package proctree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Lean reads the process table straight from /proc: what the hook uses,
// because it costs microseconds where linking gopsutil costs milliseconds.
type Lean struct {
	WithExe bool // also read /proc/<pid>/exe
}

// userHZ is the kernel's USER_HZ, the unit of /proc/<pid>/stat start times;
// it is 100 on every Linux ABI Mew runs on.
const userHZ = 100

// Get reads one process.
func (l Lean) Get(pid int) (Proc, error) {
	st, err := readStat(pid)
	if err != nil {
		return Proc{}, err
	}
	if st.zombie {
		return Proc{}, ErrNoProcess
	}
	p := Proc{Pid: pid, PPid: st.ppid, Name: st.comm, StartTicks: st.startTicks}
	if bt, err := bootTimeSec(); err == nil {
		p.StartMs = bt*1000 + int64(st.startTicks)*1000/userHZ
	}
	if l.WithExe {
		p.Exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	}
	return p, nil
}

// Tty returns the controlling terminal of pid as a /dev path, or "" when it
// has none. Unix98 ptys (majors 136-143) are named from the device number and
// confirmed with stat, which is far cheaper than scanning /dev.
func Tty(pid int) (string, error) {
	st, err := readStat(pid)
	if err != nil || st.ttyNr == 0 {
		return "", err
	}
	dev := st.ttyNr
	major, minor := unix.Major(dev), unix.Minor(dev)
	var path string
	switch {
	case major >= 136 && major <= 143:
		path = fmt.Sprintf("/dev/pts/%d", (major-136)*256+minor)
	case major == 4 && minor < 64:
		path = fmt.Sprintf("/dev/tty%d", minor)
	default:
		return "", nil
	}
	var s unix.Stat_t
	if unix.Stat(path, &s) != nil || uint64(s.Rdev) != dev {
		return "", nil
	}
	return path, nil
}

type procStat struct {
	comm       string
	zombie     bool // state Z: dead (or its main thread is; see Zombie)
	ppid       int
	ttyNr      uint64
	tpgid      int // the foreground process group of its terminal
	startTicks uint64
}

func readStat(pid int) (procStat, error) {
	if pid <= 0 {
		return procStat{}, ErrNoProcess
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ESRCH) {
			return procStat{}, ErrNoProcess
		}
		return procStat{}, err
	}
	// The command name sits in parentheses and may itself contain spaces
	// or parentheses: fields are counted after the last ')'.
	open, close := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || close < open {
		return procStat{}, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	f := strings.Fields(string(data[close+1:]))
	if len(f) < 20 { // f[0] is field 3 (state)
		return procStat{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	st := procStat{comm: string(data[open+1 : close]), zombie: f[0] == "Z" || f[0] == "X"}
	st.ppid, err = strconv.Atoi(f[1]) // field 4
	if err != nil {
		return procStat{}, fmt.Errorf("bad ppid in /proc/%d/stat", pid)
	}
	st.ttyNr, _ = strconv.ParseUint(f[4], 10, 64)         // field 7
	st.tpgid, _ = strconv.Atoi(f[5])                      // field 8
	st.startTicks, err = strconv.ParseUint(f[19], 10, 64) // field 22
	if err != nil {
		return procStat{}, fmt.Errorf("bad start time in /proc/%d/stat", pid)
	}
	return st, nil
}

var bootTime = sync.OnceValues(func() (int64, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, errors.New("no btime in /proc/stat")
})

func bootTimeSec() (int64, error) { return bootTime() }

// TicksToUnixMs converts a start time in clock ticks since boot (the unit of
// /proc/<pid>/stat and of Claude Code's procStart on Linux) to Unix ms.
func TicksToUnixMs(ticks uint64) (int64, bool) {
	bt, err := bootTimeSec()
	if err != nil {
		return 0, false
	}
	return bt*1000 + int64(ticks)*1000/userHZ, true
}

// Zombie reports whether pid is a zombie: dead, not yet reaped by its
// parent — or its main thread has exited while other threads run on (Bun,
// OpenCode's runtime, was seen so for seconds after it quit). Either way it
// runs nothing a person waits on.
func Zombie(pid int) bool {
	st, err := readStat(pid)
	return err == nil && st.zombie
}
