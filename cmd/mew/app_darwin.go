//go:build darwin && cgo

package main

import (
	"fmt"
	"io"

	"github.com/mew-dev/mew/app"
)

// The panel app needs AppKit, so only a cgo build for macOS has it (make
// app); `mew` with no arguments runs it (default_darwin.go).
func init() {
	register("app", "the menu-bar app and its floating panel (macOS)", runApp)
}

func runApp(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "mew app: unexpected argument %q\nusage: mew app\n", args[0])
		return 2
	}
	return app.Run(stdout, stderr, monitorOptions)
}
