package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mew-dev/mew/monitor"
)

// stopGrace is how long a command has to let go after a signal before it
// is ended anyway.
const stopGrace = 10 * time.Second

// untilStopped is ctx ended by the signals that end a long-running
// command: Ctrl-C, a kill, the terminal or ssh connection going away
// (SIGHUP) and a reader gone (SIGPIPE: a write then fails instead of the
// process dying on the spot). Each lets the command let go of what it
// holds (see letGo). A signal always ends the process: if letting go
// hangs (a read that never returns kept `watch --headless` and its
// notify.lock alive through SIGTERM), a second signal or stopGrace ends
// it (the kernel drops its locks).
func untilStopped() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			signal.Stop(sigs)
			return
		}
		cancel()
		t := time.NewTimer(stopGrace)
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGPIPE {
					continue // every write to a gone reader repeats it
				}
			case <-t.C:
			}
			os.Exit(1)
		}
	}()
	return ctx, cancel
}

// startWatch starts monitor.Watch for `mew <cmd>`; stop ends it the way
// letGo does. When it cannot start it says why on stderr and ok is false.
func startWatch(ctx context.Context, o monitor.Options, cmd string, stderr io.Writer) (updates <-chan monitor.Update, stop func(), ok bool) {
	ctx, cancel := context.WithCancel(ctx)
	updates, err := monitor.Watch(ctx, o)
	if err != nil {
		cancel()
		fmt.Fprintf(stderr, "mew %s: %v\n", cmd, err)
		return nil, nil, false
	}
	return updates, func() { letGo(cancel, updates) }, true
}

// letGo ends a monitor.Watch and waits until its sources have let go of
// what they hold outside this process (the tmux source's client on the
// person's server) before the command exits.
func letGo(cancel context.CancelFunc, updates <-chan monitor.Update) {
	cancel()
	for range updates {
	}
}
