//go:build !linux

package procscan

import (
	"context"

	"github.com/shirou/gopsutil/v3/process"
)

// zombie is not checked here: gopsutil asks ps(1) for the state on macOS
// (a process start per process), and launchd reaps orphans at once.
func zombie(context.Context, *process.Process) bool { return false }
