package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/logfile"
)

func TestShowLogShowsTheEndOfTheLog(t *testing.T) {
	home := t.TempDir()
	if d := readLogDialog(home); !strings.Contains(d.Text, "is empty") || d.Failed {
		t.Errorf("no log yet: %+v", d)
	}
	l := logfile.Open(logfile.PathIn(home), "app")
	for i := 0; i < 100; i++ {
		l.Printf("jump %d: did not jump", i)
	}
	l.Close()
	d := readLogDialog(home)
	if !strings.Contains(d.Text, "jump 99: did not jump") || strings.Contains(d.Text, "jump 59:") || !strings.Contains(d.Text, "jump 60:") {
		t.Errorf("not the last %d lines:\n%s", logLines, d.Text)
	}
	if !strings.Contains(d.Text, filepath.Join(home, "mew.log")) {
		t.Errorf("the path is not named:\n%s", d.Text)
	}
	if d := logDialog("/x/mew.log", nil, errors.New("permission denied")); !d.Failed {
		t.Errorf("an unreadable log: %+v", d)
	}
	os.Remove(logfile.PathIn(home))
}
