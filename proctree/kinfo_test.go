package proctree

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

// sysctlTable answers like Lean on macOS does for a vanished pid.
type sysctlTable struct{ err error }

func (s sysctlTable) Get(int) (Proc, error) { return Proc{}, kinfoErr(s.err) }

func TestVanishedPidOnMacOSIsNoProcess(t *testing.T) {
	// x/sys SysctlKinfoProc: "if n != SizeofKinfoProc { return nil, EIO }".
	for _, err := range []error{syscall.EIO, syscall.ESRCH, fmt.Errorf("sysctl: %w", syscall.EIO)} {
		if !errors.Is(kinfoErr(err), ErrNoProcess) {
			t.Errorf("%v: want ErrNoProcess", err)
		}
		alive, err2 := SameProcess(sysctlTable{err}, 4242, 1000)
		if alive || err2 != nil {
			t.Errorf("%v: SameProcess = %v, %v; want dead, no error", err, alive, err2)
		}
	}
	if err := kinfoErr(syscall.EPERM); errors.Is(err, ErrNoProcess) {
		t.Error("EPERM is a failure to read, not a gone process")
	}
}
