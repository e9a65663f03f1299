package main

import (
	"fmt"
	"io"

	"github.com/mew-dev/mew/source/remote"
)

func init() {
	add(&command{name: "version", summary: "print this mew's version (also: mew --version)", setup: noFlags(runVersion)})
}

// runVersion is `mew version`: the build and the feed format it speaks
// (what `mew remote add` and `mew doctor` report of another machine).
func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "mew %s (feed %d)\n", remote.BuildVersion(), remote.FeedVersion)
	return 0
}
