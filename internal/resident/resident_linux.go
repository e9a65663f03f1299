package resident

import (
	"bufio"
	"bytes"
	"encoding/binary"
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
	relro, ok := relroRange()
	if !ok {
		return // the program headers could not be read: leave everything
	}
	for _, r := range dropRanges(maps, exe, rodata, relro) {
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(r[0]), uintptr(r[1]-r[0]), syscall.MADV_DONTNEED)
	}
}

// dropRanges are the mappings of exe in maps (/proc/self/maps) whose pages
// are the file's bytes as they are: code, and constant data when rodata
// says nothing relocated it; never a mapping that overlaps relro, the
// part the dynamic loader wrote before making it read-only (an externally
// linked cgo binary's GOT: dropped, its function pointers would read as
// the file's zeros).
func dropRanges(maps []byte, exe string, rodata bool, relro [2]uint64) [][2]uint64 {
	var out [][2]uint64
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
		if relro[1] > relro[0] && start < relro[1] && relro[0] < end {
			continue // the loader wrote it
		}
		out = append(out, [2]uint64{start, end})
	}
	return out
}

// relroRange is the running binary's PT_GNU_RELRO segment, page-rounded
// (empty when it has none: a Go-linked binary). ok is false when the
// program headers cannot be read.
func relroRange() (r [2]uint64, ok bool) {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return r, false
	}
	defer f.Close()
	var h [64]byte
	if _, err := f.ReadAt(h[:], 0); err != nil || string(h[:4]) != "\x7fELF" || h[4] != 2 || h[5] != 1 {
		return r, false // only 64-bit little-endian is read
	}
	phoff := binary.LittleEndian.Uint64(h[0x20:])
	size, n := int64(binary.LittleEndian.Uint16(h[0x36:])), int64(binary.LittleEndian.Uint16(h[0x38:]))
	if size < 56 || n > 256 {
		return r, false
	}
	const ptGNURelro = 0x6474e552
	page := uint64(os.Getpagesize())
	for i := int64(0); i < n; i++ {
		var ph [56]byte
		if _, err := f.ReadAt(ph[:], int64(phoff)+i*size); err != nil {
			return r, false
		}
		if binary.LittleEndian.Uint32(ph[0:]) != ptGNURelro {
			continue
		}
		vaddr, memsz := binary.LittleEndian.Uint64(ph[16:]), binary.LittleEndian.Uint64(ph[40:])
		if !notRelocated() {
			return r, false // a position-independent binary's addresses move: leave everything
		}
		return [2]uint64{vaddr &^ (page - 1), (vaddr + memsz + page - 1) &^ (page - 1)}, true
	}
	return r, true
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
