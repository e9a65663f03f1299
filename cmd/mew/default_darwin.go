package main

import (
	"fmt"
	"io"
)

// runDefault is `mew` with no arguments: the panel app on macOS.
func runDefault(stdout, stderr io.Writer) int {
	if c, ok := commands["app"]; ok {
		return dispatch(c, "mew app", nil, stdout, stderr)
	}
	fmt.Fprintln(stderr, "mew: the panel app is not built in yet; try `mew status`")
	return 2
}
