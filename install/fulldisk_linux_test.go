package install

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/testbin"
)

// On a full disk `mew doctor` says the state folder cannot be written: an
// empty file needs no space, so it writes real bytes.
func TestDoctorSeesAFullDisk(t *testing.T) {
	home := testbin.FullDisk(t, "sessions")
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
