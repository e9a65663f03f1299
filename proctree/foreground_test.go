package proctree

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestCmdlineAndForegroundGroup(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Start returns once the child's execve has passed the point of no
	// return, which is before the kernel has laid out its new arguments:
	// for a moment they read as none.
	argv, err := Cmdline(cmd.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); err == nil && len(argv) == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		argv, err = Cmdline(cmd.Process.Pid)
	}
	if err != nil || strings.Join(argv, " ") != "sleep 30" {
		t.Fatalf("Cmdline = %q, %v", argv, err)
	}
	if _, err := Cmdline(1 << 29); err != ErrNoProcess {
		t.Errorf("Cmdline(no such pid) err = %v", err)
	}
	// The test binary may or may not have a terminal; a process started
	// without one has no foreground group.
	if g, err := ForegroundGroup(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	} else if tty, _ := Tty(os.Getpid()); tty == "" && g != 0 {
		t.Errorf("a process without a terminal has foreground group %d", g)
	}
}
