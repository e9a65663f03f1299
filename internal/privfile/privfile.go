// Package privfile writes the person's own small settings files in
// $MEW_HOME (alert mutes, notification sinks): JSON, 0600 in a 0700
// folder, replaced atomically, since they may hold secrets (a webhook's
// token) and a reader must never see half a file. Read reads such a file
// (or a rules file, the remotes' list) bounded, whatever is at its path.
package privfile

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Read reads the regular file at path (a symlink to one included) of at
// most max bytes. Anything else is an error, found before reading: a FIFO
// would block the open itself (hence non-blocking), a link to /dev/zero
// would never end (remotes.json linked there took 3.3 GB in 20 s).
func Read(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file: %s", kind(fi.Mode()))
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%d bytes, over the limit of %d", fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("over the limit of %d bytes", max)
	}
	return data, err
}

// kind names what a file that is not a regular one is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
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
