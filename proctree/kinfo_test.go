package proctree

import (
	"errors"
	"fmt"
	"strings"
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

// ForegroundGroup on macOS: a vanished pid (x/sys's raw EIO) is a clear
// ErrNoProcess naming the pid, not "input/output error".
func TestForegroundGroupOfAGonePidIsClear(t *testing.T) {
	_, err := foregroundOf(4242, syscall.EIO, 0, 0, 0)
	if !errors.Is(err, ErrNoProcess) || errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "4242") {
		t.Errorf("EIO: %v", err)
	}
	if _, err := foregroundOf(4242, nil, 0, 0, 0); !errors.Is(err, ErrNoProcess) {
		t.Errorf("empty record: %v", err)
	}
	if g, err := foregroundOf(4242, nil, 4242, 3, 77); g != 77 || err != nil {
		t.Errorf("a terminal: %d %v", g, err)
	}
	if g, err := foregroundOf(4242, nil, 4242, -1, 77); g != 0 || err != nil {
		t.Errorf("no terminal: %d %v", g, err)
	}
}
