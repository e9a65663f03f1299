package proctree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
)

// maxEnviron bounds what is read of another process's environment.
const maxEnviron = 256 << 10

// pick keeps the variables named in keys out of a list of "K=V" entries.
func pick(entries [][]byte, keys []string) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		k, v, ok := strings.Cut(string(e), "=")
		if !ok {
			continue
		}
		for _, want := range keys {
			if k == want {
				out[k] = v
			}
		}
	}
	return out
}

// parseProcArgs2 returns the environment entries of a macOS kern.procargs2
// buffer: an int32 argc, the executable path, NUL padding, argc argument
// strings, then the environment strings up to an empty one.
func parseProcArgs2(buf []byte) ([][]byte, error) {
	if len(buf) < 4 {
		return nil, errors.New("short kern.procargs2")
	}
	argc := int(binary.LittleEndian.Uint32(buf[:4]))
	rest := buf[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, errors.New("no executable path in kern.procargs2")
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 { // padding after the path
		rest = rest[1:]
	}
	for n := 0; n < argc; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return nil, errors.New("truncated arguments in kern.procargs2")
		}
		rest = rest[i+1:]
	}
	var env [][]byte
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 { // an empty string ends the environment
			break
		}
		env = append(env, rest[:i])
		rest = rest[i+1:]
	}
	return env, nil
}
