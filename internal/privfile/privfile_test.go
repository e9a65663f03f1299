package privfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// Read refuses what is not a regular file, or is over the limit, before
// reading it; a link to a regular file is read.
func TestReadIsBounded(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.json")
	os.WriteFile(ok, []byte(`{"a":1}`), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink(ok, link)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, 65), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, c := range []struct{ path, err string }{
		{ok, ""}, {link, ""}, {big, "65 bytes, over the limit of 64"},
		{fifo, "not a regular file: a FIFO"}, {dir, "not a regular file: a folder"},
		{"/dev/zero", "not a regular file: a device"},
	} {
		data, err := Read(c.path, 64)
		switch {
		case c.err == "" && (err != nil || string(data) != `{"a":1}`):
			t.Errorf("%s: %q, %v", c.path, data, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.path, err, c.err)
		}
	}
}

func TestReadJSONMissingIsNoErrorAndBadIsOne(t *testing.T) {
	dir := t.TempDir()
	v := map[string]int{"kept": 1}
	if found, err := ReadJSON(filepath.Join(dir, "none.json"), 1<<10, &v); found || err != nil || v["kept"] != 1 {
		t.Fatalf("missing: found %v, err %v, v %v", found, err, v)
	}
	path := filepath.Join(dir, "a.json")
	if err := WriteJSON(path, map[string]int{"a": 2}); err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if found, err := ReadJSON(path, 1<<10, &got); !found || err != nil || got["a"] != 2 {
		t.Fatalf("found %v, err %v, got %v", found, err, got)
	}
	if found, err := ReadJSON(path, 3, &got); !found || err == nil {
		t.Fatalf("over the limit: found %v, err %v", found, err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadJSON(path, 1<<10, &got); !found || err == nil {
		t.Fatalf("bad JSON: found %v, err %v", found, err)
	}
}
