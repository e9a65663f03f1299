package logfile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestShouldRotate(t *testing.T) {
	for _, c := range []struct {
		size, n, max int64
		want         bool
	}{
		{0, 10, 100, false},  // empty: the line goes in, even a long one
		{0, 500, 100, false}, // (or a line longer than the cap would never be written)
		{90, 10, 100, false}, // exactly at the cap
		{91, 10, 100, true},  // one byte past it
		{100, 1, 100, true},  // full
		{5000, 1, 100, true}, // someone else wrote past it
		{1, 200, 100, true},  // a long line into a non-empty file
	} {
		if got := ShouldRotate(c.size, c.n, c.max); got != c.want {
			t.Errorf("ShouldRotate(%d, %d, %d) = %v", c.size, c.n, c.max, got)
		}
	}
}

func TestRotationOrder(t *testing.T) {
	got := Rotation("/h/mew.log", 3)
	want := []Rename{{"/h/mew.log.2", "/h/mew.log.3"}, {"/h/mew.log.1", "/h/mew.log.2"}, {"/h/mew.log", "/h/mew.log.1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rotation(3) = %v", got)
	}
	if got := Rotation("/h/mew.log", 1); !reflect.DeepEqual(got, []Rename{{"/h/mew.log", "/h/mew.log.1"}}) {
		t.Errorf("Rotation(1) = %v", got)
	}
	if got := Rotation("/h/mew.log", 0); len(got) != 0 {
		t.Errorf("Rotation(0) = %v", got)
	}
}

func testLog(path string, max int64, keep int) *Log {
	l := Open(path, "test")
	l.max, l.keep = max, keep
	l.now = func() time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) }
	return l
}

func TestLogIsCappedAndKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "mew.log")
	l := testLog(path, 1000, 2)
	for i := 0; i < 200; i++ {
		l.Printf("line %03d", i)
	}
	l.Close()
	var total int64
	for _, p := range []string{path, path + ".1", path + ".2"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if st.Size() > 1000 {
			t.Errorf("%s has %d bytes, over the cap", p, st.Size())
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", p, st.Mode().Perm())
		}
		total += st.Size()
	}
	if _, err := os.Stat(path + ".3"); err == nil {
		t.Errorf("a third old file was kept")
	}
	tail, err := Tail(path, 2)
	if err != nil || len(tail) != 2 || !strings.HasSuffix(tail[1], "line 199") || !strings.HasSuffix(tail[0], "line 198") {
		t.Errorf("Tail = %q, %v", tail, err)
	}
	old, _ := os.ReadFile(path + ".1")
	if !strings.Contains(string(old), "line ") || strings.Contains(string(old), "line 199") {
		t.Errorf("mew.log.1 is not the file before the current one")
	}
}

func TestLogLinesAreInertAndBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mew.log")
	l := testLog(path, 1<<20, 1)
	l.Printf("screen said \x1b]0;evil\x07 and\nsecond line")
	l.Write([]byte(strings.Repeat("é", 10000) + "\n"))
	l.Close()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), data)
	}
	if strings.ContainsAny(lines[0], "\x1b\x07") || !strings.Contains(lines[0], fmt.Sprintf("test[%d] screen said", os.Getpid())) {
		t.Errorf("line 1 = %q", lines[0])
	}
	if len(lines[1]) > maxLine+100 {
		t.Errorf("a long message kept %d bytes", len(lines[1]))
	}
}

// Two writers (the app and `mew status --watch`) on one log: every line
// is kept whole, and a writer follows the file the other one rotated.
func TestTwoWritersShareTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mew.log")
	a, b := testLog(path, 4000, 5), testLog(path, 4000, 5)
	var wg sync.WaitGroup
	for _, l := range []*Log{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				l.Printf("%p %03d", l, i)
			}
		}()
	}
	wg.Wait()
	a.Close()
	b.Close()
	seen := 0
	for _, p := range []string{path, path + ".1", path + ".2", path + ".3", path + ".4", path + ".5"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if !strings.HasPrefix(line, "2026-12-01 10:00:00.000 test[") {
				t.Errorf("%s: a broken line %q", p, line)
			}
			seen++
		}
	}
	if seen < 150 { // 200 written; at most the oldest file's worth dropped
		t.Errorf("only %d of 200 lines kept", seen)
	}
}

func TestTailLines(t *testing.T) {
	if got := TailLines([]byte("partial\nb\nc\n"), 5, true); !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Errorf("cut: %q", got)
	}
	if got := TailLines([]byte("a\nb\nc"), 2, false); !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Errorf("last 2: %q", got)
	}
	if got := TailLines([]byte("a\x1b[2Jb\n"), 2, false); !reflect.DeepEqual(got, []string{"a\uFFFD[2Jb"}) {
		t.Errorf("escape: %q", got)
	}
	if got, err := Tail(filepath.Join(t.TempDir(), "none"), 3); got != nil || err != nil {
		t.Errorf("missing: %q, %v", got, err)
	}
}
