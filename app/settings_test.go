package app

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSettingsRoundTrip(t *testing.T) {
	home := filepath.Join(t.TempDir(), "mew")
	s, err := loadSettings(home)
	if err != nil || s != defaultSettings() {
		t.Fatalf("missing file: %+v %v; want the defaults", s, err)
	}
	if !s.Sounds || !s.Notifications {
		t.Fatalf("defaults %+v: sounds and notifications start on", s)
	}
	want := appSettings{Sounds: false, Notifications: true}
	if err := writeSettings(home, want); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(settingsPath(home)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("settings file: %v %v", st, err)
	}
	if got, err := loadSettings(home); err != nil || got != want {
		t.Fatalf("round trip: %+v %v, want %+v", got, err, want)
	}
}

func TestSettingsPartialAndCorrupt(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(settingsPath(home), []byte(`{"sounds": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := loadSettings(home); err != nil || got != (appSettings{Sounds: false, Notifications: true}) {
		t.Fatalf("a missing key keeps its default: %+v %v", got, err)
	}
	if err := os.WriteFile(settingsPath(home), []byte(`{"sounds": "loud"`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loadSettings(home)
	if err == nil || got != defaultSettings() {
		t.Fatalf("corrupt file: %+v %v; want the defaults and an error", got, err)
	}
	if data, _ := os.ReadFile(settingsPath(home)); string(data) != `{"sounds": "loud"` {
		t.Fatal("loading must not change the file")
	}
}
