package gops

import (
	"errors"
	"os"
	"testing"

	"github.com/mew-dev/mew/proctree"
)

// The hook records processes with proctree.Lean and the app checks them
// with gopsutil: both must describe a process the same way.
func TestAgreesWithLean(t *testing.T) {
	for _, pid := range []int{os.Getpid(), os.Getppid()} {
		lean, err := proctree.Lean{WithExe: true}.Get(pid)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Table{WithExe: true}.Get(pid)
		if err != nil {
			t.Fatal(err)
		}
		if g.PPid != lean.PPid || g.Name != lean.Name || g.Exe != lean.Exe {
			t.Fatalf("gopsutil %+v, lean %+v", g, lean)
		}
		if d := g.StartMs - lean.StartMs; d <= -1000 || d >= 1000 {
			t.Fatalf("start times differ by %d ms", d)
		}
		alive, err := proctree.SameProcess(Table{}, pid, lean.StartMs)
		if err != nil || !alive {
			t.Fatalf("SameProcess: %v %v", alive, err)
		}
	}
	if _, err := (Table{}).Get(1 << 29); !errors.Is(err, proctree.ErrNoProcess) {
		t.Fatalf("missing pid: %v", err)
	}
}
