package main

import (
	"fmt"
	"io"

	"github.com/mew-dev/mew/source/remote"
)

func init() {
	register("version", "print this mew's version", runVersion)
}

// runVersion is `mew version`: the build and the feed format it speaks
// (what `mew remote add` and `mew doctor` report of another machine).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: mew version")
		return 2
	}
	fmt.Fprintf(stdout, "mew %s (feed %d)\n", remote.BuildVersion(), remote.FeedVersion)
	return 0
}
