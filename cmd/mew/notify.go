package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

func init() {
	add(&command{
		name: "notify", summary: "where alerts go besides the sound: add, list, rm, test a command, webhook or desktop sink",
		help: "The sinks are kept in $MEW_HOME/notify.json (0600); a running Mew picks up changes as they are made.",
		subs: []*command{
			{
				name: "add", summary: "add a sink: a webhook, a command or desktop notifications",
				args: "NAME (--webhook URL [--preset json|ntfy|slack] | --command -- /abs/program [ARG…] | --desktop)",
				help: "A command gets the alert's JSON on its stdin (no shell); --desktop is Linux's org.freedesktop.Notifications, with Jump.",
				raw:  true, // NAME comes first: notifyAdd parses the rest
				setup: func(fs *flag.FlagSet) runFunc {
					fs.String("webhook", "", "POST each alert to this http(s) `URL`")
					fs.String("preset", "", "the webhook's body: json (default), ntfy, slack")
					fs.Bool("command", false, "run the program after -- with the alert's JSON on stdin")
					fs.Bool("desktop", false, "desktop notifications over D-Bus (Linux)")
					return withHome(notifyAdd)
				},
			},
			{name: "list", aliases: []string{"ls"}, summary: "the sinks (URLs masked) and how each last went", setup: noFlags(withHome(notifyList))},
			{name: "rm", aliases: []string{"remove"}, summary: "remove a sink", args: "NAME", setup: noFlags(withHome(notifyRm))},
			{name: "test", summary: "send a test alert now (to every sink, or NAME) and say how it went", args: "[NAME]", setup: noFlags(withHome(notifyTest))},
		},
	})
}

const notifyUsage = `usage:
  mew notify add NAME --webhook URL [--preset json|ntfy|slack]
  mew notify add NAME --command -- /abs/program [ARG…]   (the alert's JSON on its stdin; no shell)
  mew notify add NAME --desktop                          (Linux: org.freedesktop.Notifications, with Jump)
Run 'mew notify --help' for the other commands.`

// withHome runs a notify command with $MEW_HOME.
func withHome(f func(home string, args []string, stdout, stderr io.Writer) int) runFunc {
	return func(args []string, stdout, stderr io.Writer) int {
		home, err := store.Home()
		if err != nil {
			return fail(stderr, "mew notify", err)
		}
		return f(home, args, stdout, stderr)
	}
}

func notifyRm(home string, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, "mew notify rm", "want one NAME, got %d arguments", len(args))
	}
	cfg, err := notify.LoadConfig(home)
	if err == nil {
		cfg, err = cfg.Remove(args[0])
	}
	if err == nil {
		err = notify.SaveConfig(home, cfg)
	}
	if err != nil {
		return fail(stderr, "mew notify rm", err)
	}
	fmt.Fprintf(stdout, "removed %s\n", args[0])
	return 0
}

func notifyAdd(home string, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args[0]) == 0 || args[0][0] == '-' {
		fmt.Fprintln(stderr, notifyUsage)
		return 2
	}
	s := notify.Sink{Name: args[0]}
	fs := flag.NewFlagSet("notify add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	webhook := fs.String("webhook", "", "POST each alert to this http(s) URL")
	preset := fs.String("preset", "", "the webhook's body: json (default), ntfy, slack")
	command := fs.Bool("command", false, "run the program after -- with the alert's JSON on stdin")
	desktop := fs.Bool("desktop", false, "desktop notifications over D-Bus (Linux)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError(stderr, "mew notify add", "%s", dashes(err.Error()))
	}
	switch {
	case *webhook != "" && !*command && !*desktop:
		s.Kind, s.URL, s.Preset = notify.KindWebhook, *webhook, *preset
	case *command && *webhook == "" && !*desktop:
		s.Kind, s.Argv = notify.KindCommand, fs.Args()
	case *desktop && *webhook == "" && !*command:
		s.Kind = notify.KindDesktop
	default:
		fmt.Fprintln(stderr, "mew notify add: give one of --webhook, --command or --desktop")
		return 2
	}
	if s.Kind != notify.KindCommand && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mew notify add: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := notify.LoadConfig(home)
	if err == nil {
		cfg, err = cfg.Add(s)
	}
	if err == nil {
		err = notify.SaveConfig(home, cfg)
	}
	if err != nil {
		return fail(stderr, "mew notify add", err)
	}
	fmt.Fprintf(stdout, "added %s: %s\n(a running Mew sends to it within seconds; `mew notify test %s` tries it now)\n", s.Name, s.Masked(), s.Name)
	return 0
}

func notifyList(home string, args []string, stdout, stderr io.Writer) int {
	cfg, err := notify.LoadConfig(home)
	if err != nil {
		return fail(stderr, "mew notify list", err)
	}
	if len(cfg.Sinks) == 0 {
		fmt.Fprintln(stdout, "No sinks: alerts only ring here. `mew notify add` adds one.")
		return 0
	}
	st, _ := notify.LoadStatus(home)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tWHERE\tLAST")
	for _, s := range cfg.Sinks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Kind, s.Masked(), sinkHealth(st[s.Name]))
	}
	tw.Flush()
	return 0
}

// sinkHealth is a sink's last outcome, in a few words.
func sinkHealth(s notify.SinkStatus) string {
	switch {
	case s.LastError != "" && s.ErrorAt.After(s.LastOK):
		return "failed " + s.ErrorAt.Local().Format("Jan 2 15:04") + ": " + text.Printable(s.LastError)
	case !s.LastOK.IsZero():
		return "sent " + s.LastOK.Local().Format("Jan 2 15:04")
	}
	return "nothing sent yet"
}

func notifyTest(home string, args []string, stdout, stderr io.Writer) int {
	cfg, err := notify.LoadConfig(home)
	if err != nil {
		return fail(stderr, "mew notify test", err)
	}
	m := notify.Message{
		Event: session.Waiting, Reason: session.ReasonInput, Test: true,
		Title: "Mew test: a session is waiting for you", Body: "This is what an alert looks like.",
		Session: session.Shown{ID: "mew-test", Agent: session.AgentClaude, State: session.Waiting, Since: time.Now()},
	}
	code, found := 0, false
	for _, s := range cfg.Sinks {
		if len(args) > 0 && s.Name != args[0] {
			continue
		}
		found = true
		if err := notify.SendOnce(context.Background(), s, m, notify.Options{Home: home}); err != nil {
			// The error may quote a remote's status line: shown inert.
			fmt.Fprintf(stdout, "%s: failed: %s\n", s.Name, text.Printable(err.Error()))
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: sent\n", s.Name)
	}
	if !found {
		fmt.Fprintln(stderr, "mew notify test: no such sink")
		return 1
	}
	return code
}
