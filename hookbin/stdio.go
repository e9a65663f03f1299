//go:build darwin || linux

package hookbin

import "os"

// silenceStdio points fds 1 and 2 at /dev/null, so not even a runtime crash
// message can reach Claude Code (which reads a hook's stdout as a reply and
// may show its stderr).
func silenceStdio() {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	_ = dupTo(int(null.Fd()), 1)
	_ = dupTo(int(null.Fd()), 2)
	null.Close()
}
