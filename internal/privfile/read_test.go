package privfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFileRefusesWhatIsNotASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o600)
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte(strings.Repeat("x", 100)), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(ok, link)

	for path, want := range map[string]error{fifo: ErrNotRegular, zero: ErrNotRegular, dir: ErrNotRegular, big: ErrTooLarge} {
		if _, err := ReadFile(path, 100); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", filepath.Base(path), err, want)
		}
	}
	for _, path := range []string{ok, link} {
		if b, err := ReadFile(path, 100); err != nil || len(b) != 100 {
			t.Errorf("%s: %d bytes, %v", filepath.Base(path), len(b), err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if b, err := ReadFile(filepath.Join(dir, "ok"), 1<<20); err != nil || len(b) != 100 {
		t.Errorf("ok with a large limit: %d, %v", len(b), err)
	}
}
