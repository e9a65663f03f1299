//go:build !linux && !darwin

package exitwatch

func newOS(func(int)) (osWatcher, error) { return nil, ErrUnsupported }
