// Command mew is Mew's command line: the session list, the hooks installer,
// jumps, the boards and the demo. Each subcommand lives in its own file and
// adds itself to the command table (cli.go) as one value.
package main

import (
	"io"
	"os"
	"regexp"

	"github.com/mew-dev/mew/internal/text"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	args = launchArgs(args)
	if len(args) == 0 {
		return runDefault(stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		return runHelp(args[1:], stdout, stderr)
	case "--version", "-version":
		return dispatch(commands["version"], "mew version", args[1:], stdout, stderr)
	}
	// Messages quote names and paths from files anyone can write: one
	// filter keeps them inert (internal/text).
	stderr = text.NewWriter(stderr)
	c, ok := commands[args[0]]
	if !ok {
		return unknownCommand(stderr, "mew", args[0], topCommands())
	}
	return dispatch(c, "mew "+c.name, args[1:], stdout, stderr)
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
