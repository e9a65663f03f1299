package registry

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/watchtest"
	"github.com/mew-dev/mew/source"
)

// With no ~/.claude, the watch never reaches $HOME or above (macOS's
// kqueue would open every entry of it, Desktop and Documents included):
// the rescan looks for the folder, and then ~/.claude is watched, not the
// home folder above it.
func TestWatchNeverAtOrAboveHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- (&Source{Dir: dir, Rescan: 20 * time.Millisecond}).Watch(ctx, out) }()
	<-out
	watchtest.NoneAtOrAbove(t, home)

	claude := filepath.Dir(dir)
	if err := os.MkdirAll(claude, 0o700); err != nil {
		t.Fatal(err)
	}
	watchtest.WaitWatched(t, claude)
	watchtest.NoneAtOrAbove(t, home)
	cancel()
	<-done
}
