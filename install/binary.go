package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/store"
)

// maxHook bounds the size of a hook binary Mew copies.
const maxHook = 256 << 20

// HookNextTo is the mew-hook that ships beside the mew executable exe
// (symlinks resolved, so a `mew` linked into ~/bin still finds its hook).
func HookNextTo(exe string) (string, error) {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s: %w", exe, err)
	}
	p := filepath.Join(filepath.Dir(real), HookName)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no %s next to %s; pass --hook PATH to say where it is", HookName, real)
	}
	return p, nil
}

// copyHook puts the hook binary src at $MEW_HOME/bin/mew-hook. The copy is
// written to a temporary file in the same directory and renamed over the
// old one, so a session running the hook at that moment runs either the old
// binary or the new one, never half a file. An identical copy is left
// alone. dry only says whether it would copy.
func copyHook(src, mewHome string, dry bool) (dst string, changed bool, err error) {
	dst = HookPath(mewHome)
	si, err := os.Stat(src)
	if err != nil {
		return dst, false, fmt.Errorf("hook binary: %w", err)
	}
	switch {
	case !si.Mode().IsRegular():
		return dst, false, fmt.Errorf("hook binary %s is not a regular file", src)
	case si.Mode().Perm()&0o111 == 0:
		return dst, false, fmt.Errorf("hook binary %s is not executable", src)
	case si.Size() == 0 || si.Size() > maxHook:
		return dst, false, fmt.Errorf("hook binary %s has an unlikely size (%d bytes)", src, si.Size())
	}
	if di, err := os.Stat(dst); err == nil && os.SameFile(si, di) {
		return dst, false, nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return dst, false, fmt.Errorf("hook binary: %w", err)
	}
	old, err := os.ReadFile(dst)
	if err == nil && bytes.Equal(old, data) {
		if fi, err := os.Stat(dst); err == nil && fi.Mode().Perm() == 0o755 {
			return dst, false, nil
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return dst, false, fmt.Errorf("cannot read the installed hook: %w", err)
	}
	if dry {
		return dst, true, nil
	}
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return dst, false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return dst, false, err
	}
	if err := store.WriteFileAtomic(dst, data, 0o755); err != nil {
		return dst, false, fmt.Errorf("cannot install the hook binary: %w", err)
	}
	return dst, true, nil
}
