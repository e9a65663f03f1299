// Package watchfs is the plumbing every source (and the monitor's store
// reader) shares, written once: send a source's observations only when they
// changed (Sender), follow a folder that may not exist yet (Folders: its
// nearest existing ancestor below the home folder, never the home folder or
// above), split a growing file into lines with bounded memory (Lines), and
// tell whether a file was rewritten (Stamp).
package watchfs

import (
	"context"
	"io/fs"
	"reflect"
	"syscall"
	"time"
)

// Stamp is what changes when a file is rewritten: its modification time,
// its size, and its inode (a file replaced by rename has a new one).
type Stamp struct {
	mod  time.Time
	size int64
	ino  uint64
}

// StampOf is fi's stamp.
func StampOf(fi fs.FileInfo) Stamp {
	s := Stamp{mod: fi.ModTime(), size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = uint64(st.Ino)
	}
	return s
}

// Sender sends a source's values on Out only when they changed: the first
// value always (the monitor's first pass waits for it, even when empty),
// then a value unlike the last one sent, or any value when forced.
type Sender[T any] struct {
	Out chan<- T
	// Same says two values are alike; nil compares them with
	// reflect.DeepEqual.
	Same func(a, b T) bool

	last T
	sent bool
}

// Send sends v unless it is like the last value sent (force sends it
// anyway); it reports false only when ctx ended first.
func (s *Sender[T]) Send(ctx context.Context, v T, force bool) bool {
	if s.sent && !force && s.same(v, s.last) {
		return true
	}
	select {
	case s.Out <- v:
		s.last, s.sent = v, true
		return true
	case <-ctx.Done():
		return false
	}
}

// Last is the last value sent (the zero value before the first).
func (s *Sender[T]) Last() T { return s.last }

func (s *Sender[T]) same(a, b T) bool {
	if s.Same != nil {
		return s.Same(a, b)
	}
	return reflect.DeepEqual(a, b)
}

// ModTime is the modification time the stamp was taken with.
func (s Stamp) ModTime() time.Time { return s.mod }
