package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/rules"
	runwrap "github.com/mew-dev/mew/screen/run"
	"github.com/mew-dev/mew/store"
)

func init() {
	add(&command{
		name: "run", summary: "run an agent under Mew's eye: mew run -- <agent> [args…]",
		args: "-- <agent> [args…]",
		help: `Runs the agent in a terminal of Mew's own and reads its screen: Mew sees it wait, work and
finish without hooks. The agent's output reaches your terminal unchanged; the exit code is its own.`,
		setup: func(fs *flag.FlagSet) runFunc {
			// The wrapper's own child on the agent's terminal (see
			// runwrap.Leader): internal, so not in the help.
			leader := fs.Bool("leader", false, "")
			return func(args []string, stdout, stderr io.Writer) int {
				if *leader {
					return runwrap.Leader(args)
				}
				return runRun(args, stdout, stderr)
			}
		},
	})
}

// runRun wraps an agent in a PTY (package screen/run). Everything after
// "--" is the agent's command line, passed on untouched; the exit code is
// the agent's.
func runRun(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return usageError(stderr, "mew run", "which agent? mew run -- <agent> [args…]")
	}
	st, err := store.Open(hookbin.Fold)
	if err != nil {
		return fail(stderr, "mew run", err)
	}
	log := &hookbin.Log{Path: st.Home + "/mew-run.log"}
	var leader []string
	if exe, err := os.Executable(); err == nil {
		leader = []string{exe, "run", "--leader", "--"}
	}
	code, err := runwrap.Run(runwrap.Options{
		Argv: args, Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Env: os.Environ(),
		Store: st, Rules: rules.Cached(rules.Dir(st.Home)), Now: time.Now,
		// Nothing but the agent may write to the terminal while it runs.
		Log:    func(format string, a ...any) { log.Printf("-", format, a...) },
		Leader: leader,
	})
	if err != nil {
		fmt.Fprintf(stderr, "mew run: %v\n", err)
	}
	return code
}
