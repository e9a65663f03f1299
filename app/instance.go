package app

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// instanceLockName is the lock file in $MEW_HOME that one running panel
// app holds: two would show two panels and ring twice.
const instanceLockName = "app.lock"

// acquireInstance takes the app's lock without waiting. ok is false when
// another Mew holds it (then this one should exit quietly: it is the copy
// a login item or a second click started). release gives it back; the
// kernel also drops it when the process ends, however it ends.
func acquireInstance(mewHome string) (release func(), ok bool, err error) {
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return nil, false, err
	}
	fl := flock.New(filepath.Join(mewHome, instanceLockName), flock.SetPermissions(0o600))
	locked, err := fl.TryLock()
	if err != nil {
		return nil, false, fmt.Errorf("the app lock %s: %w", fl.Path(), err)
	}
	if !locked {
		return nil, false, nil
	}
	return func() { _ = fl.Unlock() }, true, nil
}
