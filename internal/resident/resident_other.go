//go:build !linux

package resident

// DropStartPages does nothing here: only Linux is done (its /proc tells
// which mappings are the program's own).
func DropStartPages() {}
