package main

import (
	"fmt"
	"io"
)

// runDefault is `mew` with no arguments: defaultCommand, the panel app on
// macOS and the terminal board elsewhere (default_*.go).
func runDefault(stdout, stderr io.Writer) int {
	if c, ok := commands[defaultCommand]; ok {
		return dispatch(c, "mew "+defaultCommand, nil, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mew: the %s is not built in yet; try `mew status`\n", defaultWhat)
	return 2
}
