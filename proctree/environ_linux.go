package proctree

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Environ returns the variables named in keys from the environment pid was
// started with (readable for the person's own processes only).
func Environ(pid int, keys []string) (map[string]string, error) {
	if pid <= 0 {
		return nil, ErrNoProcess
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEnviron))
	if err != nil {
		return nil, err
	}
	return pick(bytes.Split(data, []byte{0}), keys), nil
}
