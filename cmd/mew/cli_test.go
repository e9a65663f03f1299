package main

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// walk calls f for every command of the table, groups and their
// commands, with the words that reach it.
func walk(f func(path []string, c *command)) {
	var visit func(path []string, c *command)
	visit = func(path []string, c *command) {
		f(path, c)
		for _, s := range c.subs {
			visit(append(slices.Clip(path), s.name), s)
		}
	}
	for _, c := range topCommands() {
		visit([]string{c.name}, c)
	}
}

// Every command, nested ones too, prints its own usage on -h and --help
// to stdout and exits 0, with nothing on stderr; flags as the README
// writes them (two dashes).
func TestHelpWalkEveryCommand(t *testing.T) {
	t.Setenv("MEW_HOME", t.TempDir())
	n := 0
	walk(func(path []string, c *command) {
		n++
		for _, h := range []string{"-h", "--help"} {
			var out, errb strings.Builder
			code := run(append(slices.Clone(path), h), &out, &errb)
			want := "usage: mew " + strings.Join(path, " ")
			if code != 0 || !strings.HasPrefix(out.String(), want) || errb.Len() > 0 {
				t.Errorf("mew %s %s: exit %d, stdout %q, stderr %q; want 0 and %q", strings.Join(path, " "), h, code, out.String(), errb.String(), want)
			}
			if !strings.Contains(out.String(), c.summary) {
				t.Errorf("mew %s %s: the summary is missing", strings.Join(path, " "), h)
			}
			if m := regexp.MustCompile(`(?m)^  -[a-z][a-z-]`).FindString(out.String()); m != "" {
				t.Errorf("mew %s %s: a flag with one dash: %q", strings.Join(path, " "), h, m)
			}
			// A value's name is one upper-case word ("--png FILE"): a
			// quoted `mew remote` in a usage once came out as
			// "-feed mew remote".
			_, flags, _ := strings.Cut(out.String(), "\nFlags:\n")
			if m := regexp.MustCompile(`(?m)^  --[a-z-]+ [a-z][^ ]* `).FindString(flags); m != "" {
				t.Errorf("mew %s %s: a garbled flag line: %q", strings.Join(path, " "), h, m)
			}
			// `mew help remote add` says the same.
			var viaHelp strings.Builder
			if code := run(append([]string{"help"}, path...), &viaHelp, &errb); code != 0 || viaHelp.String() != out.String() {
				t.Errorf("mew help %s: exit %d, not the same usage", strings.Join(path, " "), code)
			}
		}
	})
	if n < 25 {
		t.Errorf("walked %d commands; the table has more", n)
	}
}

// Usage errors go to stderr, name the bad word and exit 2.
func TestUsageErrorsNameTheWord(t *testing.T) {
	t.Setenv("MEW_HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"stauts"}, `unknown command "stauts"; did you mean "status"?`},
		{[]string{"wtach"}, `did you mean "watch"?`},
		{[]string{"zzzzzzzz"}, `unknown command "zzzzzzzz"`},
		{[]string{"status", "--jsno"}, "unknown flag --jsno"},
		{[]string{"status", "extra"}, `unexpected argument "extra"`},
		{[]string{"jump", "--timeout"}, "flag needs a value: --timeout"},
		{[]string{"jump", "--timeout", "soon", "x"}, `invalid value "soon" for flag --timeout`},
		{[]string{"remote", "ad"}, `mew remote: unknown command "ad"; did you mean "add"?`},
		{[]string{"remote", "add", "--bogus", "a", "b"}, `unknown flag "--bogus"`},
		{[]string{"notify", "tset"}, `did you mean "test"?`},
		{[]string{"notify", "add", "x", "--bogus"}, "unknown flag --bogus"},
		{[]string{"rules", "chek"}, `did you mean "check"?`},
		{[]string{"rules", "classify", "f.txt"}, "--agent NAME is required"},
		{[]string{"remote"}, "mew remote: which command?"},
		{[]string{"version", "x"}, `unexpected argument "x"`},
		{[]string{"help", "stauts"}, `did you mean "status"?`},
	} {
		var out, errb strings.Builder
		code := run(c.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) || out.Len() > 0 {
			t.Errorf("mew %q: exit %d, stdout %q, stderr %q; want 2 and %q on stderr", c.args, code, out.String(), errb.String(), c.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out, errb strings.Builder
		if code := run(args, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "mew ") {
			t.Errorf("mew %q: %d %q %q", args, code, out.String(), errb.String())
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"status", "watch", "jump", "run", "usage"}
	for word, want := range map[string]string{"stauts": "status", "statu": "status", "jmup": "jump", "rn": "run", "xyz": "", "": "", "usag": "usage"} {
		if got := suggest(word, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

// README's list of commands and `mew help` name the same commands.
func TestReadmeListsEveryCommand(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inReadme := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "bin/mew "); ok {
			if w := strings.Fields(rest); len(w) > 0 && !strings.HasPrefix(w[0], "#") {
				inReadme[w[0]] = true
			}
		}
	}
	var help strings.Builder
	run([]string{"help"}, &help, &help)
	inHelp := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)  `).FindAllStringSubmatch(help.String(), -1) {
		inHelp[m[1]] = true
	}
	var missing []string
	for n := range inHelp {
		if !inReadme[n] && n != "app" { // the panel app: `bin/mew` with no command on macOS
			missing = append(missing, "README lacks "+n)
		}
	}
	for n := range inReadme {
		if !inHelp[n] {
			missing = append(missing, "mew help lacks "+n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(inHelp) < 15 {
		t.Errorf("README and mew help disagree (%d in help): %v", len(inHelp), missing)
	}
}
