package install

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// On a full disk `mew doctor` says the state folder cannot be written: an
// empty file needs no space, so it writes real bytes.
func TestDoctorSeesAFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	home := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", home).Run() })
	if err := os.Mkdir(filepath.Join(home, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(home, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	var said []string
	checkStateDir(home, func(l Level, format string, args ...any) {
		said = append(said, fmt.Sprintf("%v "+format, append([]any{l}, args...)...))
	})
	if len(said) != 1 || !strings.Contains(said[0], "not writable") || !strings.Contains(said[0], "no space left") {
		t.Fatalf("doctor said %q", said)
	}
	if left, _ := filepath.Glob(filepath.Join(home, "sessions", ".mew-doctor-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
