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

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/board/tui"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/remote"
)

func init() {
	add(&command{
		name: "watch", summary: "the terminal board: a live list of sessions; arrows and Enter jump, 1-9 answer",
		help:  "On the board, ? shows the keys. Not on a terminal (or with --once) it prints the board once.",
		setup: watchFlags,
	})
}

type watchOptions struct{ once, headless, serve bool }

func watchFlags(fs *flag.FlagSet) runFunc {
	var o watchOptions
	fs.BoolVar(&o.once, "once", false, "print the board once and exit (also when the output is not a terminal)")
	fs.Float64Var(&quotaAlert, "quota-alert", board.DefaultQuotaThreshold, "ring once when a quota window (5 h, weekly) reaches this `percent`")
	fs.BoolVar(&o.headless, "headless", false, "no board: only send the alerts to the sinks of 'mew notify' (a login service)")
	fs.BoolVar(&o.serve, "serve", false, "with --headless: also serve the web board on "+defaultListen+" (see 'mew serve')")
	return func(args []string, stdout, stderr io.Writer) int { return runWatch(o, args, stdout, stderr) }
}

// quotaAlert is the terminal board's quota alert threshold (--quota-alert).
var quotaAlert float64 = board.DefaultQuotaThreshold

func runWatch(opt watchOptions, args []string, stdout, stderr io.Writer) int {
	once, headless := &opt.once, &opt.headless
	serve := &opt.serve
	if quotaAlert <= 0 || quotaAlert > 100 {
		return usageError(stderr, "mew watch", "--quota-alert must be a percentage above 0, at most 100")
	}
	if *serve && !*headless {
		fmt.Fprintln(stderr, "mew watch: --serve goes with --headless (or run `mew serve`)")
		return 2
	}
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew watch", err)
	}
	if *headless {
		ctx, stop := untilStopped()
		defer stop()
		if *serve {
			sf := serveFlags{listen: defaultListen}
			ln, opts, err := sf.open(o.Store.Home, stderr)
			if err != nil {
				return fail(stderr, "mew watch", err)
			}
			attachRemotes(ctx, &o, true, stderr, "watch")
			return runHeadlessServing(ctx, o, stdout, stderr, ln, opts)
		}
		attachRemotes(ctx, &o, true, stderr, "watch")
		return runHeadless(ctx, o, stderr, nil, nil)
	}
	if *once || !isTerminal(stdout) {
		attachRemotes(context.Background(), &o, false, stderr, "watch")
		shown := snapshot(o, "watch", stderr)
		cfg := boardConfig()
		cfg.ShowQuiet, cfg.QuotaThreshold = true, quotaAlert
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
	// The board owns the terminal: what it did and what went wrong goes
	// to mew.log (opened before the monitor starts: see openLog).
	l := openLog(o.Store.Home, title)
	defer l.Close()
	defer l.Printf("stopped")
	updates, err := monitor.Watch(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "mew %s: %v\n", title, err)
		return 1
	}
	defer letGo(cancel, updates)
	feed := make(chan tui.Update)
	// Enter and 1-9 act on the sessions of the latest update, what the
	// board shows.
	hub, _ := o.Remote.(*remote.Hub)
	sessions := &act.Sessions{Remotes: func() *remote.Hub { return hub }}
	jumper := &act.Jumper{Runner: &jump.Runner{Exec: jump.CommandExec{}}, Sessions: sessions}
	typist := &answer.Answerer{Home: o.Store.Home, Rules: rules.Cached(rules.Dir(o.Store.Home))}
	answers := &act.Answerer{Sessions: sessions, Local: act.LocalAnswer(typist)}
	problems := &problemLog{log: l}
	send := &notify.Holder{Home: o.Store.Home, Log: l, Who: "mew " + title}
	defer send.Release()
	sinks := notify.StartService(ctx, o.Store.Home, l, send, sessions, notify.TmuxFocus)
	prefs := &alertprefs.Store{Home: o.Store.Home}
	facts := &bellFacts{prefs: prefs, log: l}
	go func() {
		defer close(feed)
		for u := range updates {
			problems.note(u.Errors)
			sessions.Share(u.Records)
			facts.set(u.Records)
			notify.Offer(sinks, u)
			select {
			case feed <- tui.Update{Sessions: monitor.Values(u.Sessions), Errors: u.Errors}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var bell io.Writer
	if f, ok := terminalOf(stderr); ok {
		bell = f // the same terminal, outside Bubble Tea's frame
	}
	cfg := boardConfig()
	cfg.ShowQuiet, cfg.QuotaThreshold = true, quotaAlert
	m := tui.New(tui.Options{
		Updates: feed, Jumper: loggedJumper{jumper, l}, Answerer: loggedAnswerer{answers, l},
		Bell: bell, Title: title, Board: &cfg, Mutes: prefs, Facts: func() board.AlertFacts { return facts.get(ctx) },
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

// runHeadless sends the alerts with no board, until ctx ends: `mew watch
// --headless`, for a login service. It waits for the sending lock when
// another Mew holds it (the app, a `mew watch`), and sends once it quits.
// sessions (nil: its own) and publish (nil: none) are the web board's
// (`mew serve`).
func runHeadless(ctx context.Context, o monitor.Options, stderr io.Writer, sessions *act.Sessions, publish func(monitor.Update)) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l := openLog(o.Store.Home, "watch --headless")
	defer l.Close()
	defer l.Printf("stopped")
	// On a terminal it says what it does (sending or deferring, and to
	// which sinks) as well as in the log; as a service, only the log.
	var say notify.Logger = l
	if isTerminal(stderr) {
		say = &termLog{log: l, w: stderr, now: time.Now}
		fmt.Fprintf(stderr, "mew watch --headless: watching the sessions of %s; alerts go to the sinks of 'mew notify' (ctrl-c stops)\n", o.Store.Home)
	}
	updates, err := monitor.Watch(ctx, o)
	if err != nil {
		return fail(stderr, "mew watch", err)
	}
	defer letGo(cancel, updates)
	if sessions == nil {
		hub, _ := o.Remote.(*remote.Hub)
		sessions = &act.Sessions{Remotes: func() *remote.Hub { return hub }}
	}
	send := &notify.Holder{Home: o.Store.Home, Log: say, Who: "mew watch --headless"}
	defer send.Release()
	send.Holds() // say at once who sends
	sinks := notify.StartService(ctx, o.Store.Home, say, send, sessions, notify.TmuxFocus)
	problems := &problemLog{log: l}
	for {
		select {
		case <-ctx.Done():
			return 0
		case u, ok := <-updates:
			if !ok {
				return 0
			}
			problems.note(u.Errors)
			sessions.Share(u.Records)
			notify.Offer(sinks, u)
			if publish != nil {
				publish(u)
			}
		}
	}
}

// termLog writes what headless does to its terminal as well as to the log.
type termLog struct {
	log *logfile.Log
	w   io.Writer
	now func() time.Time
}

func (t *termLog) Printf(format string, a ...any) {
	t.log.Printf(format, a...)
	fmt.Fprintf(t.w, "%s %s\n", t.now().Format("15:04:05"), text.OneLine(fmt.Sprintf(format, a...), 0))
}

// isTerminal reports whether w is a terminal (not a pipe, file or
// /dev/null).
func isTerminal(w io.Writer) bool {
	_, ok := terminalOf(w)
	return ok
}

// terminalOf is the terminal w writes to, past the filter run puts on
// stderr (text.Writer): the board's BEL must reach it unfiltered.
func terminalOf(w io.Writer) (*os.File, bool) {
	if t, ok := w.(text.Writer); ok {
		w = t.W
	}
	f, ok := w.(*os.File)
	return f, ok && term.IsTerminal(f.Fd())
}
