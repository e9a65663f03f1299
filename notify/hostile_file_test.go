package notify

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// notify.json or notify-status.json made a FIFO, or a symlink to
// /dev/zero: an error at once, never a hang or gigabytes read.
func TestHostileNotifyFiles(t *testing.T) {
	for _, name := range []string{ConfigName, StatusName} {
		for _, kind := range []string{"fifo", "zero"} {
			home := t.TempDir()
			path := filepath.Join(home, name)
			if kind == "fifo" {
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				var err error
				if name == ConfigName {
					_, err = LoadConfig(home)
				} else {
					_, err = LoadStatus(home)
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("%s as %s: no error", name, kind)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s as %s: hangs", name, kind)
			}
		}
	}
}
