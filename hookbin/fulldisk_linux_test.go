package hookbin_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tinyFullDisk mounts a 256 KiB tmpfs and fills it; it skips where the
// test may not mount (not root).
func tinyFullDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	return dir
}

// On a full disk the hook records nothing; it says so where it can (here
// nowhere on disk: its stderr), writes nothing on stdout and exits 0.
func TestFullDiskLossIsSaid(t *testing.T) {
	home := tinyFullDisk(t)
	bin := hookBinary(t)
	r := runHook(t, bin, home, []byte(`{"session_id":"full1","hook_event_name":"Stop"}`))
	if r.exit != 0 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q", r.exit, r.stdout)
	}
	if !strings.Contains(r.stderr, "session=full1 dropped Stop") || !strings.Contains(r.stderr, "no space left") {
		t.Fatalf("stderr %q", r.stderr)
	}
}
