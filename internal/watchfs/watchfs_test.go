package watchfs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSenderSendsOnlyChanges(t *testing.T) {
	out := make(chan []string, 10)
	s := Sender[[]string]{Out: out}
	ctx := context.Background()
	for _, v := range [][]string{nil, nil, {"a"}, {"a"}, {"b"}} {
		if !s.Send(ctx, v, false) {
			t.Fatal("Send reported an ended context")
		}
	}
	s.Send(ctx, []string{"b"}, true) // forced: sent although unchanged
	close(out)
	var got []string
	for v := range out {
		got = append(got, strings.Join(v, ","))
	}
	if want := []string{"", "a", "b", "b"}; !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q (the first always, then changes, then the forced one)", got, want)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	blocked := Sender[int]{Out: make(chan int)}
	if blocked.Send(ended, 1, false) {
		t.Error("Send to nobody with an ended context reported true")
	}
}

func TestLinesKeepsOnePartialLineAndSkipsLongOnes(t *testing.T) {
	l := Lines{Max: 8}
	var got []string
	line := func(b []byte) { got = append(got, string(b)) }
	for _, chunk := range []string{"one\ntw", "o\n", "far-too-long-", "line\nthree", "\n"} {
		l.Feed([]byte(chunk), line)
	}
	if want := []string{"one", "two", "three"}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	got = nil
	l.Reset(true) // from the middle of a line
	l.Feed([]byte("rest of it\nnext\n"), line)
	if want := []string{"next"}; !slices.Equal(got, want) {
		t.Errorf("after a mid-line reset: %q, want %q", got, want)
	}
	got = nil
	data := []byte("a\nbb\nccc\nunfinished")
	l.Reset(false)
	off, err := l.ReadRange(bytes.NewReader(data), 2, int64(len(data)), 3, line)
	if err != nil || off != int64(len(data)) {
		t.Fatalf("ReadRange = %d, %v", off, err)
	}
	if want := []string{"bb", "ccc"}; !slices.Equal(got, want) {
		t.Errorf("ReadRange lines %q, want %q", got, want)
	}
}

// A missing folder is followed through its nearest existing ancestor, but
// never through the home folder or above: then nothing is watched until a
// later Follow finds the folder.
func TestFoldersFollowBelowHomeOnly(t *testing.T) {
	home := t.TempDir()
	var adds []string
	f := Folders{Home: home, Add: func(d string) error { adds = append(adds, d); return nil }}
	claude := filepath.Join(home, ".claude", "sessions")
	if f.Follow(claude) || len(adds) != 0 {
		t.Fatalf("watched %q for a folder whose nearest ancestor is home", adds)
	}
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if !f.Follow(claude) || !slices.Equal(adds, []string{filepath.Join(home, ".claude")}) {
		t.Fatalf("watched %q, want the existing parent below home", adds)
	}
	if err := os.Mkdir(claude, 0o700); err != nil {
		t.Fatal(err)
	}
	adds = nil
	if !f.Follow(claude) || !slices.Equal(adds, []string{claude}) {
		t.Fatalf("watched %q, want the folder once it exists", adds)
	}
	adds = nil
	if f.Follow(claude) || len(adds) != 0 {
		t.Errorf("watched %q again", adds)
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{home, false}, {filepath.Dir(home), false}, {"/", false},
		{filepath.Join(home, "x"), true}, {"/tmp/elsewhere", true},
	} {
		if got := Watchable(c.dir, home); got != c.want {
			t.Errorf("Watchable(%q) = %v, want %v", c.dir, got, c.want)
		}
	}
}
