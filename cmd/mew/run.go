package main

import (
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
	register("run", "run an agent under Mew's eye: mew run -- <agent> [args…]", runRun)
}

// runRun wraps an agent in a PTY (package screen/run). Everything after
// "--" is the agent's command line, passed on untouched; the exit code is
// the agent's.
func runRun(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "--leader" {
		// The wrapper's own child on the agent's terminal (see
		// runwrap.Leader): `mew run --leader -- <agent> [args…]`.
		args = args[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		return runwrap.Leader(args)
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: mew run -- <agent> [args…]")
		fmt.Fprintln(stderr, "Runs the agent in a terminal of Mew's own and reads its screen: Mew sees it wait, work and")
		fmt.Fprintln(stderr, "finish without hooks. The agent's output reaches your terminal unchanged; the exit code is its own.")
		return 2
	}
	st, err := store.Open(hookbin.Fold)
	if err != nil {
		fmt.Fprintf(stderr, "mew run: %v\n", err)
		return 1
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
