//go:build unix

package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mew-dev/mew/internal/text"
)

// LockName is the lock of the one Mew per $MEW_HOME that sends.
const LockName = "notify.lock"

// Lock is the sending lock, held while its holder runs (the kernel lets it
// go when the process ends, however it ends).
type Lock struct{ f *os.File }

// TryLock takes the sending lock if no other Mew of home holds it.
func TryLock(home string) (*Lock, bool, error) {
	return lock(home, syscall.LOCK_EX|syscall.LOCK_NB)
}

// WaitLock waits for the sending lock (`mew watch --headless` takes over
// when the app or another watch quits).
func WaitLock(home string) (*Lock, error) {
	l, _, err := lock(home, syscall.LOCK_EX)
	return l, err
}

func lock(home string, how int) (*Lock, bool, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(home, LockName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.EWOULDBLOCK {
		f.Close()
		return nil, false, nil
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	return &Lock{f: f}, true, nil
}

// Say writes who holds the lock into it, for the Mews that defer to it to
// name (Holding).
func (l *Lock) Say(who string) {
	if l == nil || l.f == nil {
		return
	}
	if who == "" {
		who = "a Mew"
	}
	if l.f.Truncate(0) == nil {
		l.f.WriteAt([]byte(fmt.Sprintf("%s (pid %d)\n", who, os.Getpid())), 0)
	}
}

// Holding is who holds home's sending lock, as it said (Say); "" when
// unknown. Bounded: the file is anyone's to fill.
func Holding(home string) string {
	f, err := os.OpenFile(filepath.Join(home, LockName), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 200)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return text.OneLine(line, 120)
}

// Release lets the lock go.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
