package hookbin_test

import (
	"os/exec"
	"syscall"
)

// dieWithTheTest makes c end when the test process does: a test binary
// killed by its timeout runs no Cleanup, and a hog left spinning slows
// everything after it.
func dieWithTheTest(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
