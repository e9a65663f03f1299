// Package watchtest tells tests which folders this process watches with
// inotify (Linux; the kernel lists every watch in /proc/self/fdinfo), so a
// test can assert what a source's fsnotify watcher holds without a hook
// in the source. It models the macOS rule "no folder at or above $HOME is
// watched" (kqueue opens every entry of a watched folder there).
package watchtest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fileID is a folder as inotify names it: its device and inode.
type fileID struct{ major, minor, ino uint64 }

// watches lists every inotify watch of this process.
func watches(t testing.TB) map[fileID]bool {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("inotify's watch list is Linux's")
	}
	fds, err := os.ReadDir("/proc/self/fdinfo")
	if err != nil {
		t.Skipf("no /proc/self/fdinfo: %v", err)
	}
	out := map[fileID]bool{}
	for _, fd := range fds {
		f, err := os.Open(filepath.Join("/proc/self/fdinfo", fd.Name()))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "inotify wd:") {
				continue
			}
			var id fileID
			for _, field := range strings.Fields(line) {
				k, v, _ := strings.Cut(field, ":")
				n, err := strconv.ParseUint(v, 16, 64)
				if err != nil {
					continue
				}
				switch k {
				case "ino":
					id.ino = n
				case "sdev": // the kernel's dev_t: major << 20 | minor
					id.major, id.minor = n>>20, n&0xfffff
				}
			}
			out[id] = true
		}
		f.Close()
	}
	return out
}

// idOf is path's device and inode (the userspace dev_t split as glibc does).
func idOf(t testing.TB, path string) (fileID, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, false
	}
	dev := uint64(st.Dev)
	return fileID{
		major: (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff),
		minor: dev&0xff | (dev>>12)&^uint64(0xff),
		ino:   st.Ino,
	}, true
}

// Watched reports whether this process has an inotify watch on path.
func Watched(t testing.TB, path string) bool {
	t.Helper()
	id, ok := idOf(t, path)
	return ok && watches(t)[id]
}

// NoneAtOrAbove fails the test when this process watches dir or any of
// its ancestors.
func NoneAtOrAbove(t testing.TB, dir string) {
	t.Helper()
	w := watches(t)
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if id, ok := idOf(t, p); ok && w[id] {
			t.Errorf("%s is watched (at or above %s)", p, dir)
		}
		if filepath.Dir(p) == p {
			return
		}
	}
}

// WaitWatched waits (up to 30 s) until this process watches dir: a source
// finds a folder that appeared on its periodic pass.
func WaitWatched(t testing.TB, dir string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !Watched(t, dir) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never watched after it appeared", dir)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
