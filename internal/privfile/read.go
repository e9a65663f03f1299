package privfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// ErrNotRegular and ErrTooLarge are why Open refuses a file.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
)

// Open opens path for reading the one way Mew opens a file anyone may have
// put there: without blocking (opening a FIFO for reading waits for a
// writer, forever), then fstat on what was opened, so nothing can be
// swapped in between. Only a regular file is kept (a symlink to one is
// followed); a FIFO, a device (a symlink to /dev/zero reads forever), a
// socket or a folder is refused, and so is a file of more than max bytes.
// The caller reads at most max bytes all the same (the file may grow):
// ReadFile does.
func Open(path string, max int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %s", ErrNotRegular, kind(fi.Mode()))}
	}
	if fi.Size() > max {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, fi.Size(), max)}
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path, of at most max bytes (see
// Open): the way to read any file Mew reads but did not just create.
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, min(fi.Size(), max)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > max {
			return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: over the limit of %d bytes", ErrTooLarge, max)}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

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

// OpenRegular is Open for a file of any size whose reader bounds what it
// reads itself (a log or transcript read from its tail).
func OpenRegular(path string) (*os.File, error) {
	f, _, err := Open(path, math.MaxInt64)
	return f, err
}
