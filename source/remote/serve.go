package remote

import (
	"io"
	"time"

	"github.com/mew-dev/mew/session"
)

// ServeFeed is the host side of a remote, `mew status --watch --json
// --feed`: it writes this machine's whole list (list of each update) as
// one line at start and on every change, and a heartbeat when nothing was
// written for HeartbeatEvery. It returns when updates closes or w fails
// (the reader went away).
func ServeFeed[U any](w io.Writer, updates <-chan U, list func(U) ([]session.Shown, []error)) {
	serveFeed(w, updates, list, HeartbeatEvery)
}

func serveFeed[U any](w io.Writer, updates <-chan U, list func(U) ([]session.Shown, []error), every time.Duration) {
	fw := NewFeedWriter(w)
	beat := time.NewTicker(every)
	defer beat.Stop()
	// A heartbeat before the first list would read as a feed without
	// sessions to the other side: none until the first list went.
	started, wrote := false, false // wrote: since the last tick
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				return
			}
			if fw.Snapshot(list(u)) != nil {
				return // the connection is gone
			}
			started, wrote = true, true
		case <-beat.C:
			if started && !wrote && fw.Heartbeat() != nil {
				return
			}
			wrote = false
		}
	}
}
