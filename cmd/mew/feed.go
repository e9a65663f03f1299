package main

import (
	"context"
	"io"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// feedStatus is `mew status --watch --json --feed`, what `mew remote`
// reads over ssh (remote.ServeFeed). It ends when ctx does or the reader
// goes away.
func feedStatus(ctx context.Context, o monitor.Options, stdout, stderr io.Writer) int {
	updates, stop, ok := startWatch(ctx, o, "status", stderr)
	if !ok {
		return 1
	}
	defer stop()
	remote.ServeFeed(stdout, updates, func(u monitor.Update) ([]session.Shown, []error) { return monitor.Values(u.Sessions), u.Errors })
	return 0
}
