package monitor_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/watchtest"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

// A first launch: no ~/.mew and no ~/.claude. Nothing at or above $HOME
// is watched (macOS's kqueue would open every entry of it, Desktop and
// Documents included, and show privacy prompts): the store's folder and
// the registry are looked for on their periodic passes instead.
func TestWatchNeverAtOrAboveHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	opts := monitor.Options{
		Store:   store.Store{Home: filepath.Join(home, ".mew")},
		Sources: []monitor.Source{&registry.Source{Dir: filepath.Join(home, ".claude", "sessions")}},
		Procs:   proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs, Now: time.Now, LockTimeout: time.Second,
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	<-updates // the first update waits for every source's first report
	watchtest.NoneAtOrAbove(t, home)
	cancel()
	for range updates {
	}
}
