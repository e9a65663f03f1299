package proctree

import (
	"bytes"
	"os"
	"strconv"
)

// Writes is a fingerprint of what pid and the processes under it have
// written so far (their /proc/<pid>/io write counters: bytes and calls, to
// a terminal or anywhere): it stays the same exactly while none of them
// writes, starts or loses a child. The program drawing an agent's screen
// is often not the job itself: Qwen Code's `qwen` starts node, which
// starts the node that draws (a grandchild); so the walk goes writesDepth
// levels down (the children each main thread started), at most
// writesMax processes. false when it cannot be read (another user's
// process, one gone).
func Writes(pid int) (uint64, bool) {
	h := uint64(14695981039346656037) // FNV-1a
	mix := func(v uint64) {
		for range 8 {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	add := func(p int) bool {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/io")
		if err != nil {
			return false
		}
		wchar, ok1 := ioField(data, "wchar: ")
		syscw, ok2 := ioField(data, "syscw: ")
		if !ok1 || !ok2 {
			return false
		}
		mix(uint64(p))
		mix(wchar)
		mix(syscw)
		return true
	}
	level, seen := []int{pid}, 0
	for depth := 0; len(level) > 0; depth++ {
		var next []int
		for _, p := range level {
			if seen == writesMax {
				return h, true // a big tree (a tool's build): its top is enough
			}
			seen++
			if !add(p) {
				return 0, false
			}
			if depth == writesDepth {
				continue
			}
			children, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + strconv.Itoa(p) + "/children")
			if err != nil {
				return 0, false
			}
			for _, f := range bytes.Fields(children) {
				c, err := strconv.Atoi(string(f))
				if err != nil {
					return 0, false
				}
				next = append(next, c)
			}
		}
		level = next
	}
	return h, true
}

// How far Writes looks under a job: Qwen Code draws from the third node
// down (`qwen` → node → node); a tool's build may start many more.
const (
	writesDepth = 4
	writesMax   = 32
)

// ioField is the number after name in a /proc/<pid>/io.
func ioField(data []byte, name string) (uint64, bool) {
	i := bytes.Index(data, []byte(name))
	if i < 0 {
		return 0, false
	}
	rest := data[i+len(name):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	n, err := strconv.ParseUint(string(rest), 10, 64)
	return n, err == nil
}
