package driver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// KillLeftovers ends the processes the run's CLI left behind: those whose
// working directory is inside the run's own temporary folder (its home or
// project; Qwen Code's inner node outlives its pane, reparented to init). Only Linux can tell;
// elsewhere it does nothing. It returns the pids it ended.
func (r *Run) KillLeftovers() []int {
	var killed []int
	for _, pid := range r.leftovers() {
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	return killed
}

// AwaitLeftovers gives the processes the run left behind until timeout to
// end by themselves (pi's detached hooks outlive its pane and may still
// be folding), then ends the rest (KillLeftovers), whose pids it returns.
func (r *Run) AwaitLeftovers(timeout time.Duration) []int {
	for deadline := time.Now().Add(timeout); len(r.leftovers()) > 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	return r.KillLeftovers()
}

// leftovers lists the processes whose working directory is inside the
// run's folder.
func (r *Run) leftovers() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil || r.Home == "" {
		return nil
	}
	// Home and Project are both directly in the run's folder.
	root := filepath.Dir(filepath.Clean(r.Home)) + string(filepath.Separator)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd+string(filepath.Separator), root) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}
