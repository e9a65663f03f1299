package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/demo"
	"github.com/mew-dev/mew/store"
)

func init() {
	add(&command{name: "snapshot", summary: "draw the board as a PNG (--png FILE; --demo for the fixed demo board)", setup: snapshotFlags})
}

type snapshotOptions struct {
	path       string
	fixed, all bool
	scale      int
}

func snapshotFlags(fs *flag.FlagSet) runFunc {
	var o snapshotOptions
	fs.StringVar(&o.path, "png", "", "write the PNG to this `file` (\"-\": standard output)")
	fs.BoolVar(&o.fixed, "demo", false, "draw the fixed demo board (the same bytes on every run) instead of your sessions")
	fs.IntVar(&o.scale, "scale", 3, "screen pixels per board pixel (1-16)")
	fs.BoolVar(&o.all, "all", false, "also draw idle and exited sessions")
	return func(args []string, stdout, stderr io.Writer) int { return runSnapshot(o, args, stdout, stderr) }
}

func runSnapshot(opt snapshotOptions, args []string, stdout, stderr io.Writer) int {
	path, fixed, scale, all := &opt.path, &opt.fixed, &opt.scale, &opt.all
	switch {
	case *path == "":
		return usageError(stderr, "mew snapshot", "--png FILE is required")
	case *scale < 1 || *scale > board.MaxScale:
		return usageError(stderr, "mew snapshot", "--scale must be between 1 and %d", board.MaxScale)
	}

	var frame board.Frame
	if *fixed {
		frame = demo.BoardFrame(*all)
	} else {
		o, err := monitorOptions()
		if err != nil {
			return fail(stderr, "mew snapshot", err)
		}
		shown := snapshot(o, "snapshot", stderr)
		cfg := boardConfig()
		cfg.ShowQuiet = *all
		now := time.Now()
		frame = board.Draw(board.Arrange(shown, now, cfg), now, uint64(now.UnixNano()/int64(board.TickInterval)))
		frame = board.WithQuotas(frame, board.Quotas(shown, now, board.DefaultQuotaThreshold), time.Local)
	}
	var buf bytes.Buffer
	if err := board.WritePNG(&buf, frame, *scale); err != nil {
		return fail(stderr, "mew snapshot", err)
	}
	if *path == "-" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return fail(stderr, "mew snapshot", err)
		}
		return 0
	}
	// Atomic, so a README build or an open viewer never sees half an image.
	if err := store.WriteFileAtomic(*path, buf.Bytes(), 0o644); err != nil {
		return fail(stderr, "mew snapshot", err)
	}
	fmt.Fprintf(stdout, "wrote %s (%d×%d)\n", *path, frame.W**scale, frame.H**scale)
	return 0
}
