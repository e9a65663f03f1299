//go:build gnustep

// The GNUstep harness's category on NSApplication (gnustep_app.m); build.sh
// copies both files into the scratch copy of cmd/mew.

package main

import "C"
