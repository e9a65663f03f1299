package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/store"
)

// appSettings are the app's own choices, kept in $MEW_HOME/app.json.
type appSettings struct {
	// Sounds: ring the board's alert sounds.
	Sounds bool `json:"sounds"`
	// Notifications: post a macOS notification for each alert (only when
	// run from Mew.app; see notificationsAvailable).
	Notifications bool `json:"notifications"`
	// QuotaAlert is the percentage of a quota window that alerts, once
	// per window (0: board.DefaultQuotaThreshold, 90).
	QuotaAlert float64 `json:"quota_alert,omitempty"`
}

// boardConfig is the board the panel runs with these settings.
func (s appSettings) boardConfig() board.Config {
	cfg := board.DefaultConfig()
	if s.QuotaAlert > 0 && s.QuotaAlert <= 100 {
		cfg.QuotaThreshold = s.QuotaAlert
	}
	return cfg
}

// defaultSettings are used until the person changes something.
func defaultSettings() appSettings { return appSettings{Sounds: true, Notifications: true} }

// settingsPath is the settings file in mewHome.
func settingsPath(mewHome string) string { return filepath.Join(mewHome, "app.json") }

// maxSettingsFile bounds what is read of the settings file.
const maxSettingsFile = 64 << 10

// loadSettings reads the settings; a missing file gives the defaults. A
// file that cannot be read or parsed gives the defaults and an error to
// report: the app still starts.
func loadSettings(mewHome string) (appSettings, error) {
	s := defaultSettings()
	data, err := privfile.ReadFile(settingsPath(mewHome), maxSettingsFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return s, err
	case len(data) > maxSettingsFile:
		return s, fmt.Errorf("%s is larger than %d bytes", settingsPath(mewHome), maxSettingsFile)
	}
	// Keys missing from the file keep their defaults.
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&s); err != nil {
		return defaultSettings(), fmt.Errorf("%s: %v", settingsPath(mewHome), err)
	}
	return s, nil
}

// writeSettings writes the settings atomically, private to the person.
func writeSettings(mewHome string, s appSettings) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(settingsPath(mewHome), append(data, '\n'), 0o600)
}
