package proctree

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
)

// Environ returns the variables named in keys from the environment pid was
// started with (readable for the person's own processes only).
func Environ(pid int, keys []string) (map[string]string, error) {
	if pid <= 0 {
		return nil, ErrNoProcess
	}
	// A process caught inside execve (its new name is set, its new stack
	// not yet) reads as an empty environment: read again a few times, a
	// few ms apart, before taking "no variables" for an answer (a process
	// started with `env -i` pays those ms once per read).
	var data []byte
	for try := 0; ; try++ {
		var err error
		if data, err = readEnviron(pid); err != nil {
			return nil, err
		}
		if len(data) > 0 || try == emptyRetries {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	return pick(bytes.Split(data, []byte{0}), keys), nil
}

// emptyRetries is how often an empty environment is read again.
const emptyRetries = 3

func readEnviron(pid int) ([]byte, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxEnviron))
}
