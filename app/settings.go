package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/store"
)

// Settings are the app's own choices, kept in $MEW_HOME/app.json.
type Settings struct {
	// Sounds: ring the board's alert sounds.
	Sounds bool `json:"sounds"`
	// Notifications: post a macOS notification for each alert (only when
	// run from Mew.app; see NotificationsAvailable).
	Notifications bool `json:"notifications"`
}

// DefaultSettings are used until the person changes something.
func DefaultSettings() Settings { return Settings{Sounds: true, Notifications: true} }

// SettingsPath is the settings file in mewHome.
func SettingsPath(mewHome string) string { return filepath.Join(mewHome, "app.json") }

// maxSettingsFile bounds what is read of the settings file.
const maxSettingsFile = 64 << 10

// LoadSettings reads the settings; a missing file gives the defaults. A
// file that cannot be read or parsed gives the defaults and an error to
// report: the app still starts.
func LoadSettings(mewHome string) (Settings, error) {
	s := DefaultSettings()
	data, err := os.ReadFile(SettingsPath(mewHome))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return s, err
	case len(data) > maxSettingsFile:
		return s, fmt.Errorf("%s is larger than %d bytes", SettingsPath(mewHome), maxSettingsFile)
	}
	// Keys missing from the file keep their defaults.
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&s); err != nil {
		return DefaultSettings(), fmt.Errorf("%s: %v", SettingsPath(mewHome), err)
	}
	return s, nil
}

// SaveSettings writes the settings atomically, private to the person.
func SaveSettings(mewHome string, s Settings) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(SettingsPath(mewHome), append(data, '\n'), 0o600)
}
