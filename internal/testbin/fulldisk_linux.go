package testbin

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// FullDisk mounts a 256 KiB tmpfs for the test, makes dirs in it, and fills
// it: a full disk. It skips where the test may not mount one (not root).
func FullDisk(tb testing.TB, dirs ...string) string {
	tb.Helper()
	if os.Geteuid() != 0 {
		tb.Skip("mounting a tmpfs needs root")
	}
	dir := tb.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		tb.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	tb.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				tb.Fatal(err)
			}
			return dir
		}
	}
}
