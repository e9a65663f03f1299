package bundle

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIDAndVersion(t *testing.T) {
	app := filepath.Join(t.TempDir(), "iTerm.app")
	os.MkdirAll(filepath.Join(app, "Contents"), 0o755)
	plist := `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>com.googlecode.iterm2</string>
<key>CFBundleShortVersionString</key><string>3.5.11</string>
</dict></plist>`
	if err := os.WriteFile(filepath.Join(app, "Contents", "Info.plist"), []byte(plist), 0o644); err != nil {
		t.Fatal(err)
	}
	if id, err := ID(app); err != nil || id != "com.googlecode.iterm2" {
		t.Errorf("ID = %q, %v", id, err)
	}
	if v, err := Version(app); err != nil || v != "3.5.11" {
		t.Errorf("Version = %q, %v", v, err)
	}
	if _, err := Version(filepath.Join(app, "none")); err == nil {
		t.Error("a folder without Info.plist has a version")
	}
}
