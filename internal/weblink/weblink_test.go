package weblink

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestSaveLoadAndSessionLink(t *testing.T) {
	home := t.TempDir()
	if got := Load(home); got != "" {
		t.Fatalf("nothing saved: %q", got)
	}
	if err := Save(home, "https://box.tail1.ts.net/"); err != nil {
		t.Fatal(err)
	}
	base := Load(home)
	if got := Session(base, "tmux:%3"); got != "https://box.tail1.ts.net/s?id=tmux%3A%253" {
		t.Errorf("link %q", got)
	}
	if st, _ := os.Stat(filepath.Join(home, Name)); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	for _, bad := range []string{"javascript:alert(1)", "https://u:p@host/", "https://host/?q=1", "ftp://host", "//host"} {
		if err := Save(home, bad); err == nil {
			t.Errorf("saved %q", bad)
		}
	}
	if Load(home) != base {
		t.Error("a refused URL changed the saved one")
	}
	if err := Save(home, ""); err != nil || Load(home) != "" || Session("", "x") != "" {
		t.Error("not forgotten")
	}
}

func TestLoadFIFOHangsNothing(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, Name), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan string)
	go func() { done <- Load(home) }()
	select {
	case got := <-done:
		if got != "" {
			t.Errorf("Load %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load hung on a FIFO")
	}
}
