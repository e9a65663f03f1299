package alertprefs

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// alerts.json made a FIFO silenced every alert (Load hung in the loop
// that sends them): now it is an error at once.
func TestFIFOAlertsFileIsAnError(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, Name), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := (&Store{Home: home}).Load(); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("no error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Load hangs on a FIFO")
	}
}
