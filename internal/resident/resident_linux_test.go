package resident

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The pages of the program's own code that start-up touched leave its
// resident set, and the program runs on (they come back as it uses them).
func TestDropStartPagesShrinksTheResidentSet(t *testing.T) {
	before := rssFileKiB(t)
	DropStartPages()
	after := rssFileKiB(t)
	if after >= before {
		t.Fatalf("file-backed resident set %d KiB after, %d KiB before", after, before)
	}
	t.Logf("file-backed resident set: %d KiB → %d KiB", before, after)
	strings.Repeat("still runs", 3) // code touched again works
}

func rssFileKiB(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	t.Fatal("no RssFile")
	return 0
}

// The loader's RELRO part of an externally linked (cgo) binary is never
// dropped: it holds the GOT the loader filled, and dropping it turned the
// function pointers into the file's zeros (the GNUstep build crashed at its
// first C call through one). Code and untouched constant data are.
func TestDropRangesLeaveWhatTheLoaderWrote(t *testing.T) {
	maps := []byte(`00400000-00401000 r--p 00000000 08:01 42 /bin/mew
00401000-00800000 r-xp 00001000 08:01 42 /bin/mew
00800000-00900000 r--p 00400000 08:01 42 /bin/mew
00900000-00902000 r--p 00500000 08:01 42 /bin/mew
00902000-00910000 rw-p 00502000 08:01 42 /bin/mew
7f0000000000-7f0000010000 r-xp 00000000 08:01 7 /usr/lib/libobjc.so
`)
	relro := [2]uint64{0x900000, 0x902000}
	got := dropRanges(maps, "/bin/mew", true, relro)
	want := [][2]uint64{{0x400000, 0x401000}, {0x401000, 0x800000}, {0x800000, 0x900000}}
	if len(got) != len(want) {
		t.Fatalf("dropped %x, want %x", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("dropped %x, want %x", got, want)
		}
	}
	if got := dropRanges(maps, "/bin/mew", false, [2]uint64{}); len(got) != 1 || got[0] != [2]uint64{0x401000, 0x800000} {
		t.Fatalf("relocated constant data: dropped %x, want the code only", got)
	}
}
