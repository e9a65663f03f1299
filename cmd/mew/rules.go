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
	add(&command{
		name: "rules", summary: "screen rules: classify screen texts, check a rules file",
		subs: []*command{
			{
				name: "classify", summary: "print FILE<TAB>STATE for each screen text file, with the rules in force",
				args: "FILE…",
				help: `The state is exited, blocked, working, failed, idle or unknown, with the rules in force:
the embedded ones and your overrides in $MEW_HOME/rules.`,
				interleave: true,
				setup: func(fs *flag.FlagSet) runFunc {
					agent := fs.String("agent", "", "the agent whose rules to use ("+strings.Join(session.Agents, ", ")+", or one of your own)")
					title := fs.String("title", "", "the terminal title shown with the screens")
					return func(args []string, stdout, stderr io.Writer) int {
						return rulesClassify(*agent, *title, args, stdout, stderr)
					}
				},
			},
			{
				name: "check", summary: "validate rules files (by default every file in $MEW_HOME/rules); exit 1 if one is refused",
				args: "[FILE…]", setup: noFlags(rulesCheck),
			},
		},
	})
}

// maxScreenFile bounds a screen text read by classify.
const maxScreenFile = 1 << 20

func rulesClassify(agentName, titleText string, args []string, stdout, stderr io.Writer) int {
	agent, title, fs := &agentName, &titleText, argList(args)
	if *agent == "" {
		return usageError(stderr, "mew rules classify", "--agent NAME is required")
	}
	if len(args) == 0 {
		return usageError(stderr, "mew rules classify", "which screen files?")
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
			return fail(stderr, "mew rules", err)
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
			// Every mistake of the file, one a line.
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			}
			for _, e := range errs {
				fmt.Fprintf(stderr, "mew rules: refused: %v\n", e)
			}
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
