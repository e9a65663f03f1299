package resident

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// DropStartPages takes the program's own read-only mappings out of its
// resident set (madvise MADV_DONTNEED: the pages stay in the page cache,
// and a page touched again is mapped again from there). Only mappings
// nothing wrote to: code always; constant data only in a binary the
// dynamic loader did not relocate (not position-independent), where it
// is the file's bytes as they are. Errors leave the pages as they were.
func DropStartPages() {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return
	}
	rodata := notRelocated()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// start-end perms offset dev inode path
		f := bytes.Fields(sc.Bytes())
		if len(f) < 6 || string(f[5]) != exe {
			continue
		}
		perms := string(f[1])
		if len(perms) < 4 || perms[0] != 'r' || perms[1] != '-' || perms[3] != 'p' || (perms[2] != 'x' && !rodata) {
			continue // written to (data), or constant data a loader relocated
		}
		lo, hi, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}

// notRelocated reports whether the running binary is a fixed-address
// executable (ELF type ET_EXEC): its constant data is mapped as in the
// file. A position-independent one (ET_DYN) may have relocated read-only
// data (RELRO), whose pages are private copies.
func notRelocated() bool {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return false
	}
	defer f.Close()
	var h [18]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return false
	}
	const etExec = 2
	return string(h[:4]) == "\x7fELF" && h[5] == 1 && h[16] == etExec && h[17] == 0 // little-endian e_type
}
