package monitor

import (
	"os"
	"runtime/debug"
	"testing"
)

// An idle watcher has the collector keep a smaller heap; a busy one goes
// back to GOGC's default (a smaller heap there costs a collection every
// few passes).
func TestIdleWatcherKeepsASmallerHeap(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the watcher keeps it")
	}
	defer debug.SetGCPercent(100)
	wt := &watcher{}
	wt.collectForIdle()
	if got := debug.SetGCPercent(100); got != idleGCPercent {
		t.Fatalf("idle: collector at %d %%, want %d", got, idleGCPercent)
	}
	debug.SetGCPercent(idleGCPercent)
	wt.passes = 50 // ten a second
	wt.collectForIdle()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("busy: collector at %d %%, want 100", got)
	}
}
