package main

import (
	"os"
	"testing"
)

// TestMain keeps the machine's own agent processes (other people's
// sessions, other tests' CLIs) out of every mew these tests start: the
// process scan would list them (monitor.Default).
func TestMain(m *testing.M) {
	os.Setenv("MEW_PROCSCAN", "off")
	os.Exit(m.Run())
}
