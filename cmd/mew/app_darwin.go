//go:build darwin && cgo

package main

import (
	"io"

	"github.com/mew-dev/mew/app"
)

// The panel app needs AppKit, so only a cgo build for macOS has it (make
// app); `mew` with no arguments runs it (default_darwin.go).
func init() {
	add(&command{name: "app", summary: "the menu-bar app and its floating panel (macOS)", setup: noFlags(runApp)})
}

func runApp(args []string, stdout, stderr io.Writer) int {
	return app.Run(stdout, stderr, monitorOptions)
}
