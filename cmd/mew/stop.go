package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mew-dev/mew/monitor"
)

// untilStopped is ctx ended by the signals that end a long-running
// command: Ctrl-C, a kill, the terminal or ssh connection going away
// (SIGHUP) and a reader gone (SIGPIPE: a write then fails instead of the
// process dying on the spot). Each lets the command let go of what it
// holds (see letGo).
func untilStopped() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
}

// letGo ends a monitor.Watch and waits until its sources have let go of
// what they hold outside this process (the tmux source's client on the
// person's server) before the command exits.
func letGo(cancel context.CancelFunc, updates <-chan monitor.Update) {
	cancel()
	for range updates {
	}
}
