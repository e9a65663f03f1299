package watchfs

import (
	"bytes"
	"errors"
	"io"
)

// Lines splits the bytes appended to a file into lines, keeping at most one
// partial line: a log grows for the whole life of a session and some lines
// are huge (tool outputs, images), while the lines a source needs are
// small. A line longer than Max is skipped, never kept.
type Lines struct {
	Max      int    // the longest line kept; 0 is DefaultMaxLine
	partial  []byte // an incomplete last line
	skipping bool   // inside a line longer than Max: drop until its newline
}

// DefaultMaxLine is the longest line kept when Max is 0: no line a source
// reads is anywhere near it.
const DefaultMaxLine = 1 << 20

func (l *Lines) max() int {
	if l.Max > 0 {
		return l.Max
	}
	return DefaultMaxLine
}

// Reset forgets the partial line; midLine says the next bytes start inside
// a line (a read from the middle of a file), skipped up to its newline.
func (l *Lines) Reset(midLine bool) {
	l.partial, l.skipping = l.partial[:0], midLine
}

// Feed calls line for each complete line in b (without its newline); the
// slice is valid only during the call.
func (l *Lines) Feed(b []byte, line func([]byte)) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if !l.skipping {
				if len(l.partial)+len(b) > l.max() {
					l.partial, l.skipping = l.partial[:0], true
				} else {
					l.partial = append(l.partial, b...)
				}
			}
			return
		}
		switch {
		case l.skipping:
			l.skipping = false
		case len(l.partial) > 0:
			if whole := append(l.partial, b[:i]...); len(whole) <= l.max() {
				line(whole)
			}
			l.partial = l.partial[:0]
		default:
			line(b[:i])
		}
		b = b[i+1:]
	}
}

// ReadRange feeds the bytes of r in [from, to), chunk bytes at a time, and
// returns the offset it got to (to, unless a read failed or came short).
func (l *Lines) ReadRange(r io.ReaderAt, from, to int64, chunk int, line func([]byte)) (int64, error) {
	buf := make([]byte, min(int64(chunk), max(to-from, 0)))
	for from < to {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), to-from)], from)
		if n > 0 {
			l.Feed(buf[:n], line)
			from += int64(n)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return from, err
		}
		if n == 0 {
			break
		}
	}
	return from, nil
}

// Held is how much memory the partial line holds on to: bounded by Max
// plus one read, whatever the file's lines.
func (l *Lines) Held() int { return cap(l.partial) }
