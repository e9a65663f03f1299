package source

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWatchForStopsAtTheAgentFolderAndBelowHome(t *testing.T) {
	home := t.TempDir()
	codex := filepath.Join(home, ".codex")
	day := filepath.Join(codex, "sessions", "2026", "12", "07")
	if got := WatchFor(day, codex, home); got != "" {
		t.Errorf("no ~/.codex: watch %q, want none", got)
	}
	os.MkdirAll(filepath.Join(codex, "sessions"), 0o700)
	if got := WatchFor(day, codex, home); got != filepath.Join(codex, "sessions") {
		t.Errorf("sessions/ there: %q", got)
	}
	os.MkdirAll(day, 0o700)
	if got := WatchFor(day, codex, home); got != day {
		t.Errorf("day there: %q", got)
	}
	// An agent folder that is $HOME itself, or above it, is never watched.
	if got := WatchFor(home, home, home); got != "" {
		t.Errorf("home: %q", got)
	}
	if got := WatchFor(filepath.Join(home, "missing"), filepath.Dir(home), home); got != "" {
		t.Errorf("root above home: %q", got)
	}
	// Outside home (CODEX_HOME=/srv/codex): up to the root only.
	other := t.TempDir()
	if got := WatchFor(filepath.Join(other, "a", "b"), filepath.Join(other, "a"), home); got != "" {
		t.Errorf("above the root: %q", got)
	}
	if !AtOrAbove("/", "/x") || !AtOrAbove("/x", "/x") || AtOrAbove("/x/y", "/x") || AtOrAbove("/xy", "/x/z") {
		t.Error("AtOrAbove")
	}
}
