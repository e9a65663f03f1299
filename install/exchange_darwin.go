package install

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the files named a and b atomically (renamex_np
// RENAME_SWAP, macOS 10.12+; APFS and HFS+ support it).
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}
