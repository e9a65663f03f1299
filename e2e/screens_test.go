package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mew-dev/mew/e2e/driver"
)

// dumpScreens writes every screen the run captured to
// $MEW_E2E_SCREENS/<test>.jsonl, in the fixtures' screens.jsonl format
// ({"t": seconds since the first capture, "screen": …}), and the payloads
// the driver's own hooks logged as <test>.hooks.jsonl: how the screens behind
// a rule's anchoring, and the payloads behind a mapping, are recorded from a
// real CLI.
func dumpScreens(t *testing.T, r *driver.Run) {
	dir := os.Getenv("MEW_E2E_SCREENS")
	if dir == "" {
		return
	}
	snaps := r.Screens()
	if len(snaps) == 0 {
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(t.Name(), "_")
	f, err := os.Create(filepath.Join(dir, name+".jsonl"))
	if err != nil {
		t.Logf("screens: %v", err)
		return
	}
	defer f.Close()
	// The hook payloads the driver's own hooks logged, next to the screens.
	if hooks, err := os.ReadFile(filepath.Join(r.Opts.Dir, "observed-hooks.jsonl")); err == nil {
		os.WriteFile(filepath.Join(dir, name+".hooks.jsonl"), hooks, 0o644)
	}
	enc := json.NewEncoder(f)
	for _, s := range snaps {
		enc.Encode(struct {
			T      float64 `json:"t"`
			Screen string  `json:"screen"`
		}{s.At.Sub(snaps[0].At).Seconds(), s.Text})
	}
}
