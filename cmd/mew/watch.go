package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/tui"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/store"
)

func init() {
	register("watch", "the terminal board: a live list of sessions; arrows and Enter jump, 1-9 answer", runWatch)
}

func runWatch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	once := fs.Bool("once", false, "print the board once and exit (also when the output is not a terminal)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mew watch: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	o, err := monitor.Default()
	if err != nil {
		fmt.Fprintf(stderr, "mew watch: %v\n", err)
		return 1
	}
	if *once || !isTerminal(stdout) {
		attachRemotes(context.Background(), &o, false, stderr, "watch")
		shown, errs := monitor.Snapshot(o)
		for _, e := range errs {
			fmt.Fprintf(stderr, "mew watch: skipped: %v\n", e)
		}
		cfg := board.DefaultConfig()
		cfg.ShowQuiet = true
		fmt.Fprintln(stdout, tui.Render(shown, cfg, time.Now(), 120))
		return 0
	}
	ctx, stop := untilStopped()
	defer stop()
	attachRemotes(ctx, &o, true, stderr, "watch")
	return runTerminalBoard(ctx, o, "mew", stdout, stderr, nil)
}

// runTerminalBoard runs the live board until the person quits or ctx ends.
// started, when set, gets the program once it runs (the demo narrates
// through it).
func runTerminalBoard(ctx context.Context, o monitor.Options, title string, stdout, stderr io.Writer, started func(*tea.Program)) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates, err := monitor.Watch(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "mew %s: %v\n", title, err)
		return 1
	}
	defer letGo(cancel, updates)
	feed := make(chan tui.Update)
	answers := newBoardAnswerer(o.Store.Home, o.Remote)
	go func() {
		defer close(feed)
		for u := range updates {
			answers.setRecords(u.Records)
			select {
			case feed <- tui.Update{Sessions: u.Sessions, Errors: u.Errors}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var bell io.Writer
	if isTerminal(stderr) {
		bell = stderr // the same terminal, outside Bubble Tea's frame
	}
	m := tui.New(tui.Options{
		Updates: feed, Jumper: &boardJumper{runner: &jump.Runner{Exec: jump.CommandExec{}}, remotes: o.Remote}, Answerer: answers,
		Bell: bell, Title: title,
	})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(stdout))
	if started != nil {
		started(p)
	}
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "mew %s: %v\n", title, err)
		return 1
	}
	return 0
}

// boardJumper jumps with the jump package, one jump at a time (a newer
// Enter replaces a jump still waiting to start).
type boardJumper struct {
	runner  *jump.Runner
	remotes monitor.RemoteSessions // the other machines' sessions, or nil
}

func (j *boardJumper) Jump(id string) (string, error) {
	if !session.ValidID(id) {
		return "", fmt.Errorf("%q is not a session id", id)
	}
	st, err := store.Open()
	if err != nil {
		return "", err
	}
	// This machine's record first: a remote session with the same id is
	// not listed (remote.Merge).
	var plan func(ctx context.Context) jump.Plan
	rec, loadErr := st.Load(id)
	if loadErr == nil {
		plan = func(ctx context.Context) jump.Plan { return jump.Make(jump.Gather(ctx, rec, jump.LocalSystem())) }
	} else if hub, ok := j.remotes.(*remote.Hub); ok {
		if s, r, found := hub.Find(id); found {
			plan = func(ctx context.Context) jump.Plan { return jump.PlanRemote(ctx, s, r, jump.LocalRemoteSystem()) }
		}
	}
	if plan == nil {
		return "", fmt.Errorf("cannot read the session: %w", loadErr)
	}
	done := make(chan jump.Result, 1)
	j.runner.Submit(plan, func(r jump.Result) { done <- r })
	r := <-done
	if r.Dropped || r.Precision == jump.None {
		return "", errors.New(r.Message)
	}
	return r.Message, nil
}

// isTerminal reports whether w is a terminal (not a pipe, file or
// /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
