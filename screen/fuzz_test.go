package screen

import (
	"bytes"
	"math/rand"
	"os"
	"runtime"
	"strings"
	"testing"
)

// FuzzFeed: any bytes, split anywhere, never panic the emulator and always
// leave rows of the screen's size.
func FuzzFeed(f *testing.F) {
	if raw, err := os.ReadFile("../testdata/fixtures/claude-code-2.1.328/permission/screen.raw"); err == nil {
		f.Add(raw, uint16(100))
	}
	f.Add([]byte("\x1b]7501;state=blocked:kind=permission\x07\x1b[?1049h\x1b[2J\x1b[10;5Hx\x1b[38;5;200mé漢字"), uint16(3))
	f.Add([]byte("\x1b[999;999H\x1b[1000M\x1b[1000P\x1b[1000@\x1b[r\x1b[5;2r\x1bD\x1bM\x1b[?6h"), uint16(7))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		e := New(8, 20)
		cut := int(split) % (len(data) + 1)
		e.Write(data[:cut])
		e.Resize(5, 13)
		e.Write(data[cut:])
		s := e.Snapshot()
		if len(s.Rows) != 5 {
			t.Fatalf("%d rows", len(s.Rows))
		}
	})
}

// TestFeedTenMegabytesOfNoise: 10 MB of random bytes in PTY-sized chunks
// leave the emulator's memory bounded (rows only, no scrollback).
func TestFeedTenMegabytesOfNoise(t *testing.T) {
	if testing.Short() {
		t.Skip("10 MB through the emulator: in the full run (the race run is -short)")
	}
	rng := rand.New(rand.NewSource(1))
	buf := make([]byte, 10<<20)
	rng.Read(buf)
	// Plenty of escapes and newlines, as a terminal stream has.
	for i := 0; i < len(buf); i += 17 {
		buf[i] = "\x1b\n\r[;m"[rng.Intn(6)]
	}
	e := New(32, 120)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < len(buf); i += 4096 {
		e.Write(buf[i:min(i+4096, len(buf))])
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap grew %d KB over 10 MB of input", grown>>10)
	if grown > 4<<20 {
		t.Fatalf("the emulator kept %d MB after 10 MB of input", grown>>20)
	}
	if len(e.Snapshot().Rows) != 32 {
		t.Fatal("lost its rows")
	}
}

// TestHugeParametersStayBounded: sequences naming tens of thousands of
// lines (insert, delete, move) neither grow the screen nor take long.
func TestHugeParametersStayBounded(t *testing.T) {
	e := New(32, 120)
	n := 200
	if testing.Short() {
		n = 5
	}
	for i := 0; i < n; i++ {
		// Split a number across writes too.
		e.Write([]byte("\x1b[6553"))
		e.Write([]byte("5L\x1b[65535B\x1b[?25h\x1b[65535;65535H\x1b[65535@x"))
	}
	if n := len(e.term.Content); n != 32 {
		t.Fatalf("the screen grew to %d rows", n)
	}
	e.Write([]byte("\x1b[?1049h\x1b[Halt\x1b[?1049l"))
	if e.term.IsAlt {
		t.Fatal("a private mode number was changed (?1049 is the alternate screen)")
	}
}

// TestCountsCappedAtTheScreenSize: a count larger than the screen is
// passed on as the screen's size (rows for lines, columns for cells), and
// numbers that are not sizes (colours, modes, private modes) are left.
func TestCountsCappedAtTheScreenSize(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[1000L":                               "\x1b[24L",
		"\x1b[65535M\x1b[99S":                      "\x1b[24M\x1b[24S",
		"\x1b[1000@\x1b[500P":                      "\x1b[80@\x1b[80P",
		"\x1b[999;999H":                            "\x1b[24;80H",
		"\x1b[38;5;200mx":                          "\x1b[38;5;200mx",
		"\x1b[20h\x1b[?1049h":                      "\x1b[20h\x1b[?1049h",
		"\x1b[3;4Hx\x1b[2Jy":                       "\x1b[3;4Hx\x1b[2Jy",
		"\x1b[1000\x1b[1000L":                      "\x1b[80\x1b[24L",
		"a\x1b[" + strings.Repeat("9;", 40) + "Lb": "a\x1b[\x18b",
	} {
		e := New(24, 80)
		var got []byte
		for i := range len(in) { // byte by byte: a PTY splits anywhere
			e.Write([]byte{in[i]})
			got = append(got, e.clamped...) // what midterm read
		}
		if string(got) != want {
			t.Errorf("%q became %q, want %q", in, got, want)
		}
	}
}

// TestHostileCountsCostBoundedByTheScreen: "insert 1000 lines" over and
// over (the adversarial run's 256 KiB took 21 s) costs the emulator at
// most a screen's cells per byte, whatever the count says.
func TestHostileCountsCostBoundedByTheScreen(t *testing.T) {
	const rows, cols = 32, 120
	for _, seq := range []string{"\x1b[1000L", "\x1b[1000M", "\x1b[1000S", "\x1b[1000@"} {
		data := bytes.Repeat([]byte(seq), (16<<10)/len(seq))
		e := New(rows, cols)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		e.Write(data)
		runtime.ReadMemStats(&after)
		perByte := (after.TotalAlloc - before.TotalAlloc) / uint64(len(data))
		t.Logf("%q: %d bytes allocated per byte", seq, perByte)
		if limit := uint64(rows * cols * 4); perByte > limit {
			t.Errorf("%q: %d bytes allocated per byte of input, more than a screen of cells (%d)", seq, perByte, limit)
		}
		if n := len(e.term.Content); n != rows {
			t.Errorf("%q: the screen has %d rows", seq, n)
		}
	}
}
