package proctree

import (
	"bytes"
	"os"
	"strconv"
)

// Writes is a fingerprint of what pid, and the children its main thread
// started, have written so far (their /proc/<pid>/io write counters: bytes
// and calls, to a terminal or anywhere): it stays the same exactly while
// none of them writes, starts or loses a child. An agent's wrapper (a node
// script that spawns the program drawing the screen) is covered by its
// child's counters. false when it cannot be read (another user's process,
// one gone).
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
	if !add(pid) {
		return 0, false
	}
	children, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		return 0, false
	}
	for _, f := range bytes.Fields(children) {
		c, err := strconv.Atoi(string(f))
		if err != nil || !add(c) {
			return 0, false
		}
	}
	return h, true
}

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
