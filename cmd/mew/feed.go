package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/source/remote"
)

// feedStatus is `mew status --watch --json --feed`, what `mew remote`
// reads over ssh: this machine's whole list as one line at start and on
// every change, and a heartbeat line when nothing changed for a second.
// It ends when ctx does or the reader goes away.
func feedStatus(ctx context.Context, o monitor.Options, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates, err := monitor.Watch(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "mew status: %v\n", err)
		return 1
	}
	defer letGo(cancel, updates)
	fw := remote.NewFeedWriter(stdout)
	beat := time.NewTicker(remote.HeartbeatEvery)
	defer beat.Stop()
	// A heartbeat before the first list would read as a feed without
	// sessions to the other side: none until the first list went.
	started, wrote := false, false // wrote: since the last tick
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				return 0
			}
			if fw.Snapshot(u.Sessions, u.Errors) != nil {
				return 0 // the connection is gone
			}
			started, wrote = true, true
		case <-beat.C:
			if started && !wrote && fw.Heartbeat() != nil {
				return 0
			}
			wrote = false
		}
	}
}
