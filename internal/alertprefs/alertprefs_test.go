package alertprefs

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMuteAndSnoozeKeptPrivately(t *testing.T) {
	s := &Store{Home: t.TempDir()}
	if on, err := s.ToggleMute("abc"); err != nil || !on {
		t.Fatalf("mute: %v %v", on, err)
	}
	now := time.Now()
	until, err := s.ToggleSnooze("def", now, time.Hour)
	if err != nil || !until.Equal(now.Add(time.Hour)) {
		t.Fatalf("snooze: %v %v", until, err)
	}
	p, err := s.Load()
	if err != nil || !p.Muted["abc"] || p.Snoozed["def"].IsZero() {
		t.Fatalf("load: %+v %v", p, err)
	}
	fi, err := os.Stat(filepath.Join(s.Home, Name))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", fi, err)
	}
	if on, _ := s.ToggleMute("abc"); on {
		t.Fatal("second toggle did not unmute")
	}
	if u, _ := s.ToggleSnooze("def", now, time.Hour); !u.IsZero() {
		t.Fatal("second toggle did not end the snooze")
	}
	if p, _ := s.Load(); len(p.Muted) != 0 || len(p.Snoozed) != 0 {
		t.Fatalf("left: %+v", p)
	}
	if _, err := s.ToggleMute("../x"); err == nil {
		t.Fatal("a bad id was accepted")
	}
}
