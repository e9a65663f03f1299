// Command mew is Mew's command line: the session list, the hooks installer,
// jumps, the boards and the demo. Each subcommand lives in its own file and
// registers itself in commands.
package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"

	"github.com/mew-dev/mew/internal/text"
)

// command is one `mew <name>` subcommand.
type command struct {
	summary string
	// run gets the arguments after the name; it returns the exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the files in this package.
var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	if _, dup := commands[name]; dup {
		panic("mew: command registered twice: " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	args = launchArgs(args)
	if len(args) == 0 {
		return runDefault(stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	// Messages quote names and paths from files anyone can write: one
	// filter keeps them inert (internal/text).
	stderr = text.NewWriter(stderr)
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "mew: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// launchArgs drops the -psn_0_NNN argument macOS may pass to an app the
// Finder launches for the first time (a Carbon process serial number):
// Mew.app's first launch would otherwise be an unknown command and exit.
// Only a first argument of exactly that form goes: the same text later
// (`mew answer ID -psn_0_1`, an argument of a command) is the person's.
func launchArgs(args []string) []string {
	if len(args) > 0 && psnArg.MatchString(args[0]) {
		return args[1:]
	}
	return args
}

// psnArg is a process serial number as LaunchServices passes it.
var psnArg = regexp.MustCompile(`^-psn_[0-9]+_[0-9]+$`)

func usage(w io.Writer) {
	fmt.Fprintln(w, "Mew shows which coding-agent sessions need you.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: mew [command] [flags]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "With no command: the panel app on macOS, the terminal board elsewhere.")
}
