package hookbin

import "golang.org/x/sys/unix"

// dupTo makes fd to a copy of fd from: dup3, since some Linux ports
// (arm64) have no dup2.
func dupTo(from, to int) error { return unix.Dup3(from, to, 0) }
