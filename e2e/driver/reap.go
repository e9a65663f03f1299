package driver

// What `Close` ends besides the pane: see reapLeftovers.

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// reapLeftovers ends what a run left behind once its pane is gone, and
// waits until it is gone: every process whose HOME is the run's (a
// plugin's detached mew-hook, an agent's helper or daemon, `mew run`'s
// child) or whose folder is in the run's (KillLeftovers). Left running,
// they write into the run's folders while the test removes them
// ("directory not empty" at cleanup).
func (r *Run) reapLeftovers() {
	home := r.Home
	if home == "" {
		return
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pids := append(withHome(home), r.KillLeftovers()...)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// withHome lists the processes whose environment says HOME=home (a
// zombie's reads as empty: it is gone already).
func withHome(home string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		// Read here, not by proctree.Environ: that one reads an empty
		// environment again, and kernel threads have one.
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00HOME="+home+"\x00")) {
			out = append(out, pid)
		}
	}
	return out
}
