package proctree_test

import (
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/proctree/gops"
)

// A zombie (dead, not reaped yet: its parent, here this test, has not
// waited) is no process for liveness: an agent whose runtime left its main
// thread a zombie has quit.
func TestZombieIsNoProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip("no true(1)")
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	deadline := time.Now().Add(60 * time.Second)
	for !proctree.Zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatal("the child never became a zombie")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for name, table := range map[string]proctree.Table{"lean": proctree.Lean{}, "gopsutil": gops.Table{}} {
		if _, err := table.Get(pid); !errors.Is(err, proctree.ErrNoProcess) {
			t.Errorf("%s: Get(zombie) = %v, want ErrNoProcess", name, err)
		}
		if alive, err := proctree.SameProcess(table, pid, 0); alive || err != nil {
			t.Errorf("%s: a zombie is alive (%v, %v)", name, alive, err)
		}
	}
}
