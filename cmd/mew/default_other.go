//go:build !darwin

package main

import (
	"fmt"
	"io"
)

// runDefault is `mew` with no arguments: the terminal board off macOS.
func runDefault(stdout, stderr io.Writer) int {
	if c, ok := commands["watch"]; ok {
		return dispatch(c, "mew watch", nil, stdout, stderr)
	}
	fmt.Fprintln(stderr, "mew: the terminal board is not built in yet; try `mew status`")
	return 2
}
