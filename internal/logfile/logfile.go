// Package logfile is Mew's own log, $MEW_HOME/mew.log: where the app and
// every long-running mode (mew watch, mew status --watch) say what they
// did and what went wrong. An app started from Finder has its stderr
// nowhere a person can read it; this file is where a jump that failed, a
// notification refused or an answer's outcome leaves a trace.
//
// The file is capped: past MaxSize it moves to mew.log.1 (the one before
// that to mew.log.2, and so on up to Keep), so the log takes at most
// (Keep+1)·MaxSize. Several processes may write it at once: each line is
// one O_APPEND write, and a writer that finds its file rotated by another
// reopens the new one.
package logfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
)

// Name is the log's file name in $MEW_HOME.
const Name = "mew.log"

// The caps: 1 MiB a file, two old files kept.
const (
	MaxSize = 1 << 20
	Keep    = 2
)

// maxLine bounds one line (a message quoting a long error).
const maxLine = 4 << 10

// PathIn is the log's path in the state directory home.
func PathIn(home string) string { return filepath.Join(home, Name) }

// ShouldRotate says whether a file of size bytes must be rotated before
// n more are appended: a file never grows past max, except by one line
// written to an empty file.
func ShouldRotate(size, n, max int64) bool { return size > 0 && size+n > max }

// Rename is one step of a rotation.
type Rename struct{ From, To string }

// Rotation is the renames that rotate path keeping keep old files, in the
// order they must run: the oldest first moves over the one past it, so no
// file is overwritten before it moved on. The file at path.keep is
// replaced (dropped). keep 0: the file itself is dropped (no renames; the
// caller truncates).
func Rotation(path string, keep int) []Rename {
	var out []Rename
	for i := keep - 1; i >= 1; i-- {
		out = append(out, Rename{path + "." + strconv.Itoa(i), path + "." + strconv.Itoa(i+1)})
	}
	if keep >= 1 {
		out = append(out, Rename{path, path + ".1"})
	}
	return out
}

// Log appends lines to one log file. The zero value is not usable: Open.
type Log struct {
	path   string
	prefix string
	max    int64
	keep   int
	now    func() time.Time

	mu sync.Mutex
	f  *os.File
}

// Open returns the log at path; the file is made (0600, its folder 0700)
// on the first line. prefix names the writer ("app", "watch").
func Open(path, prefix string) *Log {
	return &Log{path: path, prefix: prefix, max: MaxSize, keep: Keep, now: time.Now}
}

// Printf writes one line: the time, the writer and its pid, the message
// (made printable: messages quote screens, paths and errors).
func (l *Log) Printf(format string, args ...any) {
	l.Write([]byte(fmt.Sprintf(format, args...)))
}

// Write writes p as one line (log.Logger's writer); it never fails: a log
// that cannot be written is skipped, never a reason to stop.
func (l *Log) Write(p []byte) (int, error) {
	if l == nil {
		return len(p), nil
	}
	msg := text.Printable(text.Truncate(strings.TrimRight(string(p), "\n"), maxLine))
	line := fmt.Sprintf("%s %s[%d] %s\n", l.now().Format("2006-01-02 15:04:05.000"), l.prefix, os.Getpid(), msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.append([]byte(line))
	return len(p), nil
}

func (l *Log) append(line []byte) {
	if l.f != nil {
		// Another process rotated it: follow the name, not the old file.
		cur, err1 := os.Stat(l.path)
		mine, err2 := l.f.Stat()
		if err1 != nil || err2 != nil || !os.SameFile(cur, mine) {
			l.f.Close()
			l.f = nil
		}
	}
	if l.f == nil {
		if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
			return
		}
		f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return
		}
		l.f = f
	}
	if st, err := l.f.Stat(); err == nil && ShouldRotate(st.Size(), int64(len(line)), l.max) {
		l.rotate()
		if l.f == nil {
			return
		}
	}
	l.f.Write(line) // one write: O_APPEND keeps concurrent writers' lines whole
}

// rotate moves the files along (Rotation) and opens a fresh one.
func (l *Log) rotate() {
	l.f.Close()
	l.f = nil
	for _, r := range Rotation(l.path, l.keep) {
		os.Rename(r.From, r.To) // a missing older file is no error
	}
	if l.keep == 0 {
		os.Remove(l.path)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		l.f = f
	}
}

// Close closes the file (the next line opens it again).
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// maxTailRead bounds what Tail reads of a log's end.
const maxTailRead = 64 << 10

// Tail is the last n lines of the log at path (fewer when it has fewer;
// none and no error when it does not exist), reading at most its last
// 64 KiB.
func Tail(path string, n int) ([]string, error) {
	f, err := privfile.OpenRegular(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(st.Size()-maxTailRead, 0)
	buf, err := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	if err != nil {
		return nil, err
	}
	return TailLines(buf, n, off > 0), nil
}

// TailLines is the last n lines of buf; cut says buf starts mid-file, so
// its first line may be partial and is left out.
func TailLines(buf []byte, n int, cut bool) []string {
	if cut {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	s := strings.TrimRight(string(buf), "\n")
	if s == "" || n <= 0 {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = text.Printable(l) // the file is the person's: anything may be in it
	}
	return lines
}
