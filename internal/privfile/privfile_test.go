package privfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteJSONIsPrivateAndWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", "sinks.json")
	if err := WriteJSON(path, map[string]string{"url": "https://x/?token=s3cret"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v", di.Mode())
	}
	var got map[string]string
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &got); err != nil || got["url"] != "https://x/?token=s3cret" {
		t.Errorf("read back %q: %v", data, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}
