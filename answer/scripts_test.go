package answer

import (
	"os"
	"path/filepath"
	"testing"
)

// TestITermScriptsGolden pins the AppleScript an iTerm2 answer runs
// (testdata/scripts).
func TestITermScriptsGolden(t *testing.T) {
	for name, text := range map[string]string{"iterm-read": scriptITermRead, "iterm-write": scriptITermWrite} {
		path := filepath.Join("testdata", "scripts", name+".applescript")
		if want, err := os.ReadFile(path); err != nil || string(want) != text {
			t.Errorf("%s differs from %s (%v):\n%s", name, path, err, text)
		}
	}
}
