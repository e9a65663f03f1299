package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// runFunc runs a command with its arguments left after the flags; it
// returns the exit code.
type runFunc func(args []string, stdout, stderr io.Writer) int

// command is one `mew <name>` (or `mew <group> <name>`) command: one
// value says its name, its one-line summary, its usage, its flags and
// what it runs. The dispatcher (dispatch) gives every command the same
// conventions: -h and --help print the usage to stdout and exit 0; a bad
// flag or argument goes to stderr, naming the word, with exit 2.
type command struct {
	name    string
	aliases []string // other names it answers to (`mew remote ls`)
	summary string   // one line, lower case, in `mew help`
	args    string   // the usage after the name and [flags]: "<session id> [choice]"; none, none taken
	help    string   // more lines, after the summary in the command's help
	// setup declares the command's flags on fs and returns what runs with
	// them; a command without flags returns its run func.
	setup func(fs *flag.FlagSet) runFunc
	// subs are the commands of a group (`mew remote add`): a group runs
	// none itself.
	subs []*command
	// raw commands parse their own arguments (their flags are declared
	// for the help only); -h or --help before a "--" still prints it.
	raw bool
	// interleave lets flags follow the arguments (`mew remote add box
	// host --no-check`); "--" ends the flags.
	interleave bool
}

// commands is filled by the init functions of the files in this package:
// adding a command is one add call.
var commands = map[string]*command{}

func add(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("mew: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// register adds a command that reads its own arguments: the short form
// for one with no flags of its own.
func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	add(&command{name: name, summary: summary, raw: true, setup: func(*flag.FlagSet) runFunc { return run }})
}

// noFlags is the setup of a command with no flags.
func noFlags(run runFunc) func(*flag.FlagSet) runFunc {
	return func(*flag.FlagSet) runFunc { return run }
}

// dispatch runs c, reached as path ("mew remote add"), with its arguments.
func dispatch(c *command, path string, args []string, stdout, stderr io.Writer) int {
	if len(c.subs) > 0 {
		if len(args) == 0 {
			fmt.Fprintf(stderr, "%s: which command?\n", path)
			printHelp(stderr, c, path)
			return 2
		}
		if isHelp(args[0]) || args[0] == "help" {
			printHelp(stdout, c, path)
			return 0
		}
		sub := c.find(args[0])
		if sub == nil {
			return unknownCommand(stderr, path, args[0], c.subs)
		}
		return dispatch(sub, path+" "+sub.name, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet(path, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	run := c.setup(fs)
	if c.raw {
		for _, a := range args {
			if a == "--" {
				break
			}
			if isHelp(a) {
				printHelp(stdout, c, path)
				return 0
			}
		}
		return run(args, stdout, stderr)
	}
	rest, err := parseFlags(fs, args, c.interleave)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(stdout, c, path)
		return 0
	}
	if err != nil {
		return usageError(stderr, path, "%s", dashes(err.Error()))
	}
	if c.args == "" && len(rest) > 0 {
		return usageError(stderr, path, "unexpected argument %q", clip(rest[0], 40))
	}
	return run(rest, stdout, stderr)
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

func (c *command) find(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
		for _, a := range s.aliases {
			if a == name {
				return s
			}
		}
	}
	return nil
}

// parseFlags parses args; with interleave, flags may come after
// arguments too, until "--".
func parseFlags(fs *flag.FlagSet, args []string, interleave bool) ([]string, error) {
	if !interleave {
		err := fs.Parse(args)
		return fs.Args(), err
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// dashes writes the flag package's messages with the two dashes the help
// and the README use.
func dashes(msg string) string {
	r := strings.NewReplacer(
		"flag provided but not defined: -", "unknown flag --",
		"flag needs an argument: -", "flag needs a value: --",
		"for flag -", "for flag --",
		"bad flag syntax: ", "bad flag: ",
	)
	return r.Replace(msg)
}

// usageError says what was wrong with the command line and where the
// usage is; it returns 2, the exit code of a usage error.
func usageError(stderr io.Writer, path, format string, a ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", path, fmt.Sprintf(format, a...))
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", path)
	return 2
}

// writeJSON writes v as the commands' --json output: indented, one value.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// fail says why `path` could not go on, on stderr, and is its exit code.
func fail(stderr io.Writer, path string, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", path, err)
	return 1
}

// unknownCommand names the word, and the command it is a typo of when one
// is close.
func unknownCommand(stderr io.Writer, path, word string, among []*command) int {
	var names []string
	for _, c := range among {
		names = append(names, c.name)
		names = append(names, c.aliases...)
	}
	fmt.Fprintf(stderr, "%s: unknown command %q", path, clip(word, 40))
	if s := suggest(word, names); s != "" {
		fmt.Fprintf(stderr, "; did you mean %q?", s)
	}
	fmt.Fprintln(stderr)
	help := path + " help"
	if path == "mew" {
		help = "mew help"
	}
	fmt.Fprintf(stderr, "Run '%s' for the list of commands.\n", help)
	return 2
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// suggest is the name closest to word when it is a likely typo of it (at
// most two edits, a swap of neighbours counting one), else "".
func suggest(word string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := editDistance(word, n)
		if d < bestD && d < len(n) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64 // no typo is that long: bounded work on any input
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// printHelp writes c's usage: the usage line, the summary, the help and
// the flags as the README writes them (--name VALUE).
func printHelp(w io.Writer, c *command, path string) {
	if len(c.subs) > 0 {
		fmt.Fprintf(w, "usage: %s <command> [flags]\n\n%s\n", path, c.summary)
		if c.help != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.help, "\n"))
		}
		fmt.Fprintln(w, "\nCommands:")
		listCommands(w, c.subs)
		fmt.Fprintf(w, "\nRun '%s <command> --help' for a command's flags.\n", path)
		return
	}
	fs := flag.NewFlagSet(path, flag.ContinueOnError)
	c.setup(fs)
	line := path
	if hasFlags(fs) {
		line += " [flags]"
	}
	if c.args != "" {
		line += " " + c.args
	}
	fmt.Fprintf(w, "usage: %s\n\n%s\n", line, c.summary)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.help, "\n"))
	}
	if hasFlags(fs) {
		fmt.Fprintln(w, "\nFlags:")
		printFlags(w, fs)
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		if f.Usage != "" {
			n++
		}
	})
	return n > 0
}

// printFlags lists fs's flags with two dashes; a flag with no usage text
// is internal and not listed.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		if f.Usage == "" {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if len(f.Name) == 1 {
			left = "-" + f.Name
		}
		if name != "" {
			left += " " + strings.ToUpper(name)
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			usage += " (default " + d + ")"
		}
		rows = append(rows, row{left, usage})
		width = max(width, len(left))
	})
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.usage)
	}
}

// listCommands writes one line per command, by name.
func listCommands(w io.Writer, cs []*command) {
	sorted := append([]*command(nil), cs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	width := 0
	for _, c := range sorted {
		width = max(width, len(c.name))
	}
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
}

// topCommands is the table as a list.
func topCommands() []*command {
	cs := make([]*command, 0, len(commands))
	for _, c := range commands {
		cs = append(cs, c)
	}
	return cs
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Mew shows which coding-agent sessions need you.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: mew <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	listCommands(w, topCommands())
	fmt.Fprintln(w)
	fmt.Fprintln(w, "With no command: the panel app on macOS, the terminal board elsewhere.")
	fmt.Fprintln(w, "Run 'mew <command> --help' for a command's flags; 'mew --version' for the version.")
}

// runHelp is `mew help [command [subcommand]]`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		return unknownCommand(stderr, "mew", args[0], topCommands())
	}
	path := "mew " + c.name
	for _, a := range args[1:] {
		sub := c.find(a)
		if sub == nil {
			return unknownCommand(stderr, path, a, c.subs)
		}
		c, path = sub, path+" "+sub.name
	}
	printHelp(stdout, c, path)
	return 0
}

// argList reads a command's arguments as a parsed flag.FlagSet's are read.
type argList []string

func (a argList) Arg(i int) string {
	if i < len(a) {
		return a[i]
	}
	return ""
}

func (a argList) NArg() int      { return len(a) }
func (a argList) Args() []string { return a }
