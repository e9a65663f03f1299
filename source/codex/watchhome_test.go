package codex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/watchtest"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/procscan"
)

// With no ~/.codex (every Claude-only user), the watch never reaches $HOME
// or above: on macOS fsnotify is kqueue, which opens every entry of a
// watched folder, ~/Desktop and ~/Documents included (privacy prompts at
// first launch). The folder is looked for on the periodic pass instead,
// and watched once it appears.
func TestWatchNeverAtOrAboveHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	src, err := NewSource()
	if err != nil {
		t.Fatal(err)
	}
	src.Poll = 20 * time.Millisecond
	src.Procs = func(context.Context) ([]procscan.Proc, error) { return nil, nil }
	src.Environ = func(int, []string) (map[string]string, error) { return nil, nil }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, out) }()
	<-out // the watches are made before the first report
	watchtest.NoneAtOrAbove(t, home)

	// Codex's first run: the periodic pass finds ~/.codex and watches it.
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	watchtest.WaitWatched(t, codexHome)
	watchtest.NoneAtOrAbove(t, home)
	cancel()
	<-done
}
