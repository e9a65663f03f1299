// Package privfile writes the person's own small settings files in
// $MEW_HOME (alert mutes, notification sinks): JSON, 0600 in a 0700
// folder, replaced atomically, since they may hold secrets (a webhook's
// token) and a reader must never see half a file. Read reads such a file
// (or a rules file, the remotes' list) bounded, whatever is at its path;
// ReadJSON decodes one, a missing file being none.
package privfile

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Read reads the regular file at path (a symlink to one included) of at
// most max bytes: ReadFile, under the name the settings files' callers use.
func Read(path string, max int64) ([]byte, error) { return ReadFile(path, max) }

// ReadJSON decodes the JSON file at path, read as ReadFile reads it (at
// most max bytes), into v. A missing file is no error: v is left as it is
// and found is false. The error is the read's or the decoder's, as it is.
func ReadJSON(path string, max int64, v any) (found bool, err error) {
	data, err := ReadFile(path, max)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	return true, json.Unmarshal(data, v)
}

// WriteJSON writes v as indented JSON to path, 0600, by temp file and
// rename.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
