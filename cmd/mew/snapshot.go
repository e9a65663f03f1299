package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/demo"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/store"
)

func init() {
	register("snapshot", "draw the board as a PNG (--png FILE; --demo for the fixed demo board)", runSnapshot)
}

func runSnapshot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("png", "", "write the PNG to this `file` (\"-\": standard output)")
	fixed := fs.Bool("demo", false, "draw the fixed demo board (the same bytes on every run) instead of your sessions")
	scale := fs.Int("scale", 3, "screen pixels per board pixel (1-16)")
	all := fs.Bool("all", false, "also draw idle and exited sessions")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "mew snapshot: unexpected argument %q\n", fs.Arg(0))
		return 2
	case *path == "":
		fmt.Fprintln(stderr, "mew snapshot: --png FILE is required")
		return 2
	case *scale < 1 || *scale > board.MaxScale:
		fmt.Fprintf(stderr, "mew snapshot: --scale must be between 1 and %d\n", board.MaxScale)
		return 2
	}

	var frame board.Frame
	if *fixed {
		frame = demo.BoardFrame(*all)
	} else {
		o, err := monitorOptions()
		if err != nil {
			fmt.Fprintf(stderr, "mew snapshot: %v\n", err)
			return 1
		}
		shown, errs := monitor.Snapshot(o)
		for _, e := range errs {
			fmt.Fprintf(stderr, "mew snapshot: skipped: %v\n", e)
		}
		cfg := board.DefaultConfig()
		cfg.ShowQuiet = *all
		now := time.Now()
		frame = board.Draw(board.Arrange(shown, now, cfg), now, uint64(now.UnixNano()/int64(board.TickInterval)))
		frame = board.WithQuotas(frame, board.Quotas(shown, now, board.DefaultQuotaThreshold), time.Local)
	}
	var buf bytes.Buffer
	if err := board.WritePNG(&buf, frame, *scale); err != nil {
		fmt.Fprintf(stderr, "mew snapshot: %v\n", err)
		return 1
	}
	if *path == "-" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			fmt.Fprintf(stderr, "mew snapshot: %v\n", err)
			return 1
		}
		return 0
	}
	// Atomic, so a README build or an open viewer never sees half an image.
	if err := store.WriteFileAtomic(*path, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "mew snapshot: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d×%d)\n", *path, frame.W**scale, frame.H**scale)
	return 0
}
