//go:build unix

package notify

import (
	"os"
	"path/filepath"
	"syscall"
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

// Release lets the lock go.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
