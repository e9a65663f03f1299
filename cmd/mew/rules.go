package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

func init() {
	register("rules", "screen rules: classify screen texts, check a rules file", runRules)
}

func rulesUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mew rules classify --agent NAME [--title TEXT] FILE…")
	fmt.Fprintln(w, "       mew rules check [FILE…]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "classify prints FILE<TAB>STATE for each screen text file (exited, blocked, working, failed, idle or")
	fmt.Fprintln(w, "unknown), with the rules in force: the embedded ones and your overrides in $MEW_HOME/rules.")
	fmt.Fprintln(w, "check validates rules files (by default every file in $MEW_HOME/rules); exit 1 if one is refused.")
}

func runRules(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		rulesUsage(stderr)
		return 2
	}
	switch args[0] {
	case "classify":
		return rulesClassify(args[1:], stdout, stderr)
	case "check":
		return rulesCheck(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		rulesUsage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "mew rules: unknown subcommand %q\n", text.OneLine(args[0], 40))
	rulesUsage(stderr)
	return 2
}

// maxScreenFile bounds a screen text read by classify.
const maxScreenFile = 1 << 20

func rulesClassify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules classify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agent := fs.String("agent", "", "the agent whose rules to use ("+strings.Join(session.Agents, ", ")+", or one of your own)")
	title := fs.String("title", "", "the terminal title shown with the screens")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *agent == "" || fs.NArg() == 0 {
		rulesUsage(stderr)
		return 2
	}
	book, errs := loadRules()
	for _, e := range errs {
		fmt.Fprintf(stderr, "mew rules: refused (the embedded rules stay in force): %v\n", e)
	}
	set := book.Set(*agent)
	if set == nil {
		fmt.Fprintf(stderr, "mew rules: no rules for agent %q (known: %s)\n", text.OneLine(*agent, 40), strings.Join(book.Agents(), ", "))
		return 2
	}
	code := 0
	for _, name := range fs.Args() {
		rows, err := readScreen(name)
		if err != nil {
			fmt.Fprintf(stderr, "mew rules: %v\n", err)
			code = 1
			continue
		}
		res := set.Classify(rules.Frame{Rows: rows, Title: *title})
		fmt.Fprintf(stdout, "%s\t%s\n", text.OneLine(name, 0), res.State)
	}
	return code
}

func readScreen(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxScreenFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxScreenFile {
		return nil, fmt.Errorf("%s: over %d bytes: not a screen", name, maxScreenFile)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n"), nil
}

func rulesCheck(args []string, stdout, stderr io.Writer) int {
	files := args
	if len(files) == 0 {
		home, err := store.Home()
		if err != nil {
			fmt.Fprintf(stderr, "mew rules: %v\n", err)
			return 1
		}
		dir := rules.Dir(home)
		files, _ = filepath.Glob(filepath.Join(dir, "*.toml"))
		if len(files) == 0 {
			fmt.Fprintf(stdout, "no rules files in %s: the embedded rules are in force\n", dir)
			return 0
		}
	}
	code := 0
	for _, f := range files {
		set, replace, err := rules.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "mew rules: refused: %v\n", err)
			code = 1
			continue
		}
		how := "tried before the embedded rules"
		if replace {
			how = "replacing the embedded rules"
		}
		fmt.Fprintf(stdout, "%s: ok: %d rules for %s, %s\n", text.OneLine(f, 0), len(set.Rules), set.Agent, how)
	}
	return code
}

func loadRules() (*rules.Book, []error) {
	home, err := store.Home()
	if err != nil {
		return rules.Embedded(), []error{err}
	}
	return rules.Load(rules.Dir(home))
}
