package store

import "path/filepath"

// writeLocked replaces path's content with data through a fresh temporary
// file and rename(2): on APFS that is cheap, and no inode is ever written
// twice, so readers need no extra care.
func writeLocked(path string, data []byte) error {
	return WriteFileAtomic(path, data, fileMode)
}

// swapName names the Linux companion file; on macOS there is none, but a
// store copied from Linux may hold one, so removal still looks for it.
func swapName(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".swap")
}
