package rules

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mew-dev/mew/internal/privfile"
)

//go:embed defaults/*.toml
var defaults embed.FS

// Book is the rules of every agent: the embedded defaults with the
// person's overrides applied.
type Book struct {
	sets map[string]*Set
}

// Embedded returns the rules shipped with Mew. They are tested; a broken
// embedded file is a build mistake and panics.
func Embedded() *Book {
	b := &Book{sets: map[string]*Set{}}
	entries, err := defaults.ReadDir("defaults")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := defaults.ReadFile("defaults/" + e.Name())
		if err != nil {
			panic(err)
		}
		set, _, err := Parse("embedded:"+e.Name(), data)
		if err != nil {
			panic(err)
		}
		set.Origin = "embedded"
		b.sets[set.Agent] = set
	}
	return b
}

// Dir is where the person's overrides live: $MEW_HOME/rules.
func Dir(mewHome string) string { return filepath.Join(mewHome, "rules") }

// Load returns the embedded rules with the overrides in dir applied. A bad
// override file is refused (its error names the file, line and reason) and
// the embedded rules of that agent stay in force.
func Load(dir string) (*Book, []error) {
	b := Embedded()
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return b, nil
		}
		return b, []error{fmt.Errorf("rules: %w", err)}
	}
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		set, replace, err := ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b.apply(set, replace)
	}
	return b, errs
}

// ReadFile parses one override file: its name must be <agent>.toml for the
// agent it declares.
func ReadFile(path string) (*Set, bool, error) {
	data, err := privfile.Read(path, maxFile) // a FIFO or /dev/zero here is refused, not read
	if err != nil {
		return nil, false, &FileError{File: path, Reason: err.Error()}
	}
	set, replace, err := Parse(path, data)
	if err != nil {
		return nil, false, err
	}
	if base := filepath.Base(path); set.Agent != strings.TrimSuffix(base, ".toml") {
		return nil, false, &FileError{File: path, Line: lineOfKey(string(data), "agent"),
			Reason: fmt.Sprintf("agent %q does not match the file name %s (name it %s.toml)", set.Agent, base, set.Agent)}
	}
	return set, replace, nil
}

// apply puts an override in force: its rules are tried before the
// embedded ones of the same state, or alone when it says replace.
func (b *Book) apply(o *Set, replace bool) {
	base, ok := b.sets[o.Agent]
	if !ok || replace {
		b.sets[o.Agent] = o
		return
	}
	merged := &Set{Agent: o.Agent, Origin: o.Origin + " + embedded"}
	merged.Rules = append(slices.Clone(o.Rules), base.Rules...)
	merged.TurnEnd = append(slices.Clone(o.TurnEnd), base.TurnEnd...)
	merged.TurnEndAlways = base.TurnEndAlways || o.TurnEndAlways
	merged.Sniff = Sniff{
		Commands: append(slices.Clone(o.Sniff.Commands), base.Sniff.Commands...),
		Argv:     append(slices.Clone(o.Sniff.Argv), base.Sniff.Argv...),
		Screen:   append(slices.Clone(o.Sniff.Screen), base.Sniff.Screen...),
		Title:    append(slices.Clone(o.Sniff.Title), base.Sniff.Title...),
		Terminal: o.Sniff.Terminal || base.Sniff.Terminal,
	}
	merged.InputBox = base.InputBox
	if o.InputBox != nil {
		merged.InputBox = o.InputBox
	}
	merged.ReportSettle = base.ReportSettle
	if o.ReportSettle != 0 {
		merged.ReportSettle = o.ReportSettle
	}
	// An override file that sets a settle time of its own wants the
	// screen to be waited on.
	merged.ReportFinal = (base.ReportFinal || o.ReportFinal) && o.ReportSettle == 0
	merged.Answer = base.Answer
	if o.Answer != nil {
		merged.Answer = o.Answer // an [answer] table replaces the embedded one whole
	}
	merged.order()
	b.sets[o.Agent] = merged
}

// Set returns the rules of agent, nil when there are none.
func (b *Book) Set(agent string) *Set { return b.sets[agent] }

// Agents lists the agents with rules, sorted.
func (b *Book) Agents() []string {
	out := make([]string, 0, len(b.sets))
	for a := range b.sets {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// SniffProcess names the agent a process is, from its name and command
// line; "" when it is none of them (a shell, an editor).
func (b *Book) SniffProcess(name string, argv []string) string {
	base := name
	if len(argv) > 0 {
		base = filepath.Base(argv[0])
	}
	cmdline := strings.Join(argv, " ")
	if multiplexer(name, base) {
		// A tmux server's command line is the command that started it
		// (`tmux new-session … /path/to/copilot`): it runs the agent's pane,
		// it is not the agent.
		return ""
	}
	if execLaunchers[base] && len(argv) > 1 {
		// `env VAR=… qwen` as typed after `mew run --` (the process itself
		// execs the agent, so the process table shows the agent).
		if rest := pastExecLaunchers(argv); len(rest) > 0 {
			return b.SniffProcess(filepath.Base(rest[0]), rest)
		}
		return ""
	}
	script := ""
	if interpreters[base] || interpreters[name] {
		script = scriptName(argv)
	}
	for _, agent := range b.Agents() {
		s := b.sets[agent]
		if slices.Contains(s.Sniff.Commands, name) || slices.Contains(s.Sniff.Commands, base) ||
			(script != "" && slices.Contains(s.Sniff.Commands, script)) {
			return agent
		}
		for _, p := range s.Sniff.Argv {
			if cmdline != "" && p.MatchString(cmdline) {
				return agent
			}
		}
	}
	return ""
}

// interpreters run an agent's script. npm's global install links the
// package's script into a bin folder (/usr/local/bin/qwen →
// ../lib/node_modules/@qwen-code/qwen-code/cli.js; nvm's and a prefix's
// alike), which runs as `node /usr/local/bin/qwen`, and an agent that
// relaunches itself passes the same path on (`node --expose-gc
// /usr/local/bin/qwen`): the script's name is the command the person typed.
var interpreters = map[string]bool{"node": true, "nodejs": true, "bun": true}

// interpreterOptsWithValue are node's and bun's options that take the next
// word as their value; noScript are those after which no script runs.
var (
	interpreterOptsWithValue = map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true,
		"--experimental-loader": true, "-C": true, "--conditions": true, "--env-file": true, "--title": true}
	noScript = map[string]bool{"-e": true, "--eval": true, "-p": true, "--print": true, "-i": true, "--interactive": true}
)

// scriptName is the base name of the script an interpreter's command line
// runs, without a .js/.mjs/.cjs extension; "" when it runs none (an eval,
// a REPL).
func scriptName(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			if i+1 < len(argv) {
				return trimScript(argv[i+1])
			}
			return ""
		case noScript[a]:
			return ""
		case strings.HasPrefix(a, "-"):
			if interpreterOptsWithValue[a] {
				i++
			}
		case a == "run" && i == 1 && filepath.Base(argv[0]) == "bun":
			// `bun run script`
		default:
			return trimScript(a)
		}
	}
	return ""
}

func trimScript(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".js", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(base, ext); ok {
			return s
		}
	}
	return base
}

// execLaunchers are launchers that exec the program they run (same
// process): sniffing looks past them. `time` forks, and its process is not
// the agent's.
var execLaunchers = map[string]bool{"env": true, "nice": true, "nohup": true}

// pastExecLaunchers drops exec launchers, their options and env's
// variable assignments from the front of argv.
func pastExecLaunchers(argv []string) []string {
	for len(argv) > 0 && execLaunchers[filepath.Base(argv[0])] {
		launcher := filepath.Base(argv[0])
		argv = argv[1:]
		for len(argv) > 0 {
			a := argv[0]
			switch {
			case a == "--":
				argv = argv[1:]
			case launcher == "env" && (a == "-u" || a == "--unset" || a == "-C" || a == "--chdir"),
				launcher == "nice" && (a == "-n" || a == "--adjustment"):
				argv = argv[min(2, len(argv)):]
				continue
			case strings.HasPrefix(a, "-"), launcher == "env" && assignment(a):
				argv = argv[1:]
				continue
			}
			break
		}
	}
	return argv
}

// assignment: env's NAME=value (a path holding a "=" is a program).
func assignment(a string) bool {
	i := strings.IndexByte(a, '=')
	return i > 0 && !strings.ContainsRune(a[:i], '/')
}

// multiplexer: the process is a terminal multiplexer (tmux names its
// server process "tmux: server" on Linux).
func multiplexer(name, base string) bool {
	return name == "tmux" || strings.HasPrefix(name, "tmux:") || base == "tmux" || name == "screen" || base == "screen"
}

// SniffScreen names the agent whose markers a frame shows; "" for none.
func (b *Book) SniffScreen(f Frame) string {
	text := strings.Join(f.Rows, "\n")
	for _, agent := range b.Agents() {
		s := b.sets[agent]
		for _, p := range s.Sniff.Title {
			if f.Title != "" && p.MatchString(f.Title) {
				return agent
			}
		}
		for _, p := range s.Sniff.Screen {
			if p.MatchString(text) {
				return agent
			}
		}
	}
	return ""
}

// Cached returns a function that gives the rules in force for dir,
// re-reading the override files only when one of them changed (it stats
// them on each call: cheap next to a screen sweep). The errors are those
// of the last read.
func Cached(dir string) func() (*Book, []error) {
	var (
		mu    sync.Mutex
		book  *Book
		errs  []error
		stamp string
	)
	return func() (*Book, []error) {
		mu.Lock()
		defer mu.Unlock()
		if s := dirStamp(dir); book == nil || s != stamp {
			book, errs = Load(dir)
			stamp = s
		}
		return book, errs
	}
}

// dirStamp sums up the names, sizes and times of dir's rules files.
func dirStamp(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "none"
	}
	var b strings.Builder
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s/%d/%d;", e.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}
