package codex

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/session"
)

// Reading limits. A rollout grows for the whole life of a session (tens of
// MB for a long one) and some lines are huge (tool outputs, images), while
// the lines Mew needs are small: a tail keeps only an offset and at most one
// partial line, never the file.
const (
	// maxLine: a longer line is skipped without being kept (no line Mew
	// uses is anywhere near this long).
	maxLine = 1 << 20
	// chunk is how much is read at a time.
	chunk = 64 << 10
	// firstWindow is how much of the end of a file a new tail reads first:
	// the newest turn's lines are there; an older start is read only when
	// the window holds no turn at all.
	firstWindow = 256 << 10
	// headMax bounds the first line (session_meta, which names the cwd).
	headMax = 256 << 10
)

// Tail follows one rollout file: Read folds only the bytes appended since
// the last Read. A last line still being written is kept until its newline
// arrives.
type Tail struct {
	Path  string
	ID    string // the session id (from the file name, or its session_meta)
	State session.LogState
	// Reviewer: the file is an auto-review's (its session_meta says so),
	// no session of its own: its parent's rollout says the turn runs.
	Reviewer bool

	mod     time.Time     // the file's modification time at the last Read
	off     int64         // bytes consumed
	lines   watchfs.Lines // at most one incomplete last line
	started bool
}

// NewTail starts following path; nothing is read until Read.
func NewTail(path string) *Tail {
	return &Tail{Path: path, ID: SessionIDFromName(path), lines: watchfs.Lines{Max: maxLine}}
}

// Read folds what was appended since the last Read and reports whether the
// state changed. A file that shrank was replaced or truncated: it is read
// again from the start.
func (t *Tail) Read() (bool, error) {
	f, err := privfile.OpenRegular(t.Path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	before := t.State
	size := fi.Size()
	if size < t.off {
		*t = Tail{Path: t.Path, ID: t.ID, lines: watchfs.Lines{Max: maxLine}}
	}
	t.mod = fi.ModTime()
	if !t.started {
		t.started = true
		t.State.File = baseName(t.Path)
		if err := t.catchUp(f, size); err != nil {
			return false, err
		}
	} else if err := t.readFrom(f, t.off, size); err != nil {
		return false, err
	}
	return t.State != before, nil
}

// catchUp reads a new tail's file: its first line (session_meta: id and
// cwd), then the end of the file in growing windows until a window holds a
// turn event (or the window is the whole file).
func (t *Tail) catchUp(f *os.File, size int64) error {
	head := make([]byte, min(size, headMax))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		t.fold(head[:i])
	}
	for window := int64(firstWindow); ; window *= 4 {
		start := max(size-window, 0)
		t.off = start
		t.lines.Reset(start > 0) // mid-line: skip to the next newline
		probe := *t
		probe.State.State = ""
		if err := probe.readFrom(f, start, size); err != nil {
			return err
		}
		if probe.State.State != "" || start == 0 {
			probe.State.Cwd = firstNonEmpty(probe.State.Cwd, t.State.Cwd)
			if probe.State.State == "" {
				probe.State.State = t.State.State
			}
			*t = probe
			return nil
		}
	}
}

// readFrom folds the complete lines of [from, to).
func (t *Tail) readFrom(f *os.File, from, to int64) error {
	off, err := t.lines.ReadRange(f, from, to, chunk, t.fold)
	if off > from {
		t.off = off
	}
	return err
}

func (t *Tail) fold(line []byte) {
	l, ok := ParseLine(line)
	if !ok {
		return
	}
	if l.SessionID != "" && t.ID == "" && session.ValidID(l.SessionID) {
		t.ID = l.SessionID
	}
	if l.Reviewer {
		t.Reviewer = true
	}
	Fold(&t.State, l)
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
