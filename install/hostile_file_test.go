package install

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
)

// Mew's own files in MEW_HOME made FIFOs: each read is an error at once.
func TestHostileMewHomeFiles(t *testing.T) {
	reads := map[string]func(home string) error{
		installedName: func(home string) error { _, err := LoadInstalled(home); return err },
		recordName:    func(home string) error { _, err := loadRecords(home); return err },
		hookbin.StatuslineCommandFile: func(home string) error {
			_, err := readStatuslineCommand(home)
			return err
		},
		statuslineRecordName: func(home string) error {
			_, err := UninstallStatusline(Options{Env: Env{MewHome: home}})
			return err
		},
	}
	for name, read := range reads {
		home := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(home, name), 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- read(home) }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s as a FIFO: no error", name)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s as a FIFO: hangs", name)
		}
	}
}
