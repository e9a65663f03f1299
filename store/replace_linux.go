package store

import (
	"errors"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// writeLocked replaces path's content with data; the caller holds the
// session lock, so there is one writer at a time.
//
// Linux: the new record goes into a companion file (.<name>.swap, written in
// place) whose name is then exchanged with path (renameat2 RENAME_EXCHANGE),
// leaving the previous record at the companion name for next time. Readers
// opening path see the old or the new record, never a mix. The plain
// "fresh temp file + rename over" costs 0.3-0.8 ms on ext4 (measured here:
// replacing a file frees its inode and, with auto_da_alloc, flushes the new
// data inside rename), more than the rest of the hook. The one new risk: a
// reader still holding the previous inode while the next write reuses it;
// readRecord detects that with fstat before and after its read and retries.
func writeLocked(path string, data []byte) error {
	dir, base := filepath.Split(path)
	swap := filepath.Join(dir, "."+base+".swap")
	fd, err := unix.Open(swap, unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, fileMode)
	if err != nil {
		return err
	}
	err = pwriteAll(fd, data)
	if err == nil {
		err = unix.Ftruncate(fd, int64(len(data)))
	}
	if err == nil {
		err = ensureMode(fd)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	err = unix.Renameat2(unix.AT_FDCWD, swap, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		// First write of this session, or a file system without exchange.
		err = unix.Rename(swap, path)
	}
	return err
}

func pwriteAll(fd int, data []byte) error {
	var off int64
	for len(data) > 0 {
		n, err := unix.Pwrite(fd, data, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		data, off = data[n:], off+int64(n)
	}
	return nil
}

// ensureMode makes a file exactly fileMode (umask may have narrowed it at
// creation; a file made by someone else may be wider).
func ensureMode(fd int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&0o7777 != fileMode {
		return unix.Fchmod(fd, fileMode)
	}
	return nil
}

// swapName is the companion file writeLocked leaves next to path.
func swapName(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".swap")
}
