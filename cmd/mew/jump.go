package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

func init() {
	add(&command{
		name: "jump", summary: "bring a session's terminal tab or tmux pane forward",
		args:  "<session id or unique prefix>",
		help:  "Exit status: 0 pane, tab or window; 3 only the application; 1 nothing; 2 usage or unknown session.",
		setup: jumpFlags,
	})
}

type jumpOptions struct {
	dryRun, json bool
	timeout      time.Duration
}

func jumpFlags(fs *flag.FlagSet) runFunc {
	var o jumpOptions
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the plan and run nothing")
	fs.BoolVar(&o.json, "json", false, "print the plan (with --dry-run) or the result as JSON")
	fs.DurationVar(&o.timeout, "timeout", jump.DefaultStepTimeout, "time limit for each step")
	return func(args []string, stdout, stderr io.Writer) int { return runJump(o, args, stdout, stderr) }
}

// Exit codes of `mew jump`: what the person can count on.
const (
	jumpExact   = 0 // the pane, tab or window is in front
	jumpNone    = 1 // nothing was brought forward
	jumpUsage   = 2 // bad arguments, no such session, ambiguous prefix
	jumpAppOnly = 3 // only the application is in front, not the exact tab
)

func runJump(opt jumpOptions, args []string, stdout, stderr io.Writer) int {
	dryRun, asJSON, timeout := &opt.dryRun, &opt.json, &opt.timeout
	if len(args) != 1 {
		return usageError(stderr, "mew jump", "want one session id, got %d arguments", len(args))
	}
	fs := argList(args)
	// Plans name apps, ttys and panes from the session file (harmless to
	// JSON: its text is ASCII outside strings).
	stdout = text.NewWriter(stdout)
	want := fs.Arg(0)
	if !session.ValidID(want) {
		fmt.Fprintf(stderr, "mew jump: %q is not a session id or prefix (letters, digits, '-', '_', ':' and '%%' only)\n", jumpClip(want))
		return jumpUsage
	}
	if *timeout <= 0 || *timeout > time.Minute {
		fmt.Fprintln(stderr, "mew jump: --timeout must be between 0 and 1m")
		return jumpUsage
	}
	o, err := monitorOptions()
	if err != nil {
		fmt.Fprintf(stderr, "mew jump: %v\n", err)
		return jumpNone
	}
	f, err := findSession(o, want, true, stderr, "jump")
	if err != nil {
		fmt.Fprintf(stderr, "mew jump: %v\n", err)
		return jumpUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), jump.DefaultPlanTimeout)
	plan := (&act.Jumper{}).PlanFound(ctx, f)
	cancel()

	if *dryRun {
		if *asJSON {
			return jumpWriteJSON(stdout, stderr, plan)
		}
		jumpPrintPlan(stdout, plan)
		return jumpExact
	}
	res := jump.Execute(context.Background(), jump.CommandExec{}, plan, *timeout)
	code := jumpExitCode(res.Precision)
	if *asJSON {
		if c := jumpWriteJSON(stdout, stderr, res); c != 0 {
			return c
		}
		return code
	}
	if code == jumpNone {
		fmt.Fprintln(stderr, "mew jump: "+res.Message)
	} else {
		fmt.Fprintln(stdout, res.Message)
	}
	return code
}

func jumpExitCode(p jump.Precision) int {
	switch p {
	case jump.Pane, jump.Tab, jump.Window:
		return jumpExact
	case jump.App:
		return jumpAppOnly
	}
	return jumpNone
}

func jumpPrintPlan(w io.Writer, p jump.Plan) {
	host := p.Host
	if host == "" {
		host = "-"
	}
	fmt.Fprintf(w, "session:   %s\nhost:      %s\nmechanism: %s\nprecision: %s\nwhy:       %s\n", p.SessionID, host, p.Mechanism, p.Precision, p.Why)
	step := func(kind string, s jump.Step) {
		line := fmt.Sprintf("  %-6s %s: %q", kind, s.Name, s.Argv)
		if s.ScriptName != "" {
			line += " (AppleScript " + s.ScriptName + " on stdin)"
		}
		if len(s.Env) > 0 {
			line += fmt.Sprintf(" env %q", s.Env)
		}
		fmt.Fprintln(w, line)
	}
	for _, s := range p.Inner {
		step("inner", s)
	}
	for i, s := range p.Outer {
		kind := "then"
		if i > 0 {
			kind = "else"
		}
		step(kind, s)
	}
}

func jumpWriteJSON(stdout, stderr io.Writer, v any) int {
	if err := writeJSON(stdout, v); err != nil {
		fmt.Fprintf(stderr, "mew jump: %v\n", err)
		return jumpNone
	}
	return 0
}

func jumpClip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
