package proctree

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestCmdlineAndForegroundGroup(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	argv, err := Cmdline(cmd.Process.Pid)
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
