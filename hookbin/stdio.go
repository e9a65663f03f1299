//go:build darwin || linux

package hookbin

import (
	"os"

	"golang.org/x/sys/unix"
)

// silenceStdio points fds 1 and 2 at /dev/null, so not even a runtime crash
// message can reach Claude Code (which reads a hook's stdout as a reply and
// may show its stderr). It returns the stderr the hook was given (nil
// when there is none): where the log's lines go when the log cannot be
// written (a full disk), the one place left that the person may see.
func silenceStdio() *os.File {
	var stderr *os.File
	if fd, err := unix.FcntlInt(2, unix.F_DUPFD_CLOEXEC, 3); err == nil {
		stderr = os.NewFile(uintptr(fd), "stderr")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return stderr
	}
	_ = dupTo(int(null.Fd()), 1)
	_ = dupTo(int(null.Fd()), 2)
	null.Close()
	return stderr
}
