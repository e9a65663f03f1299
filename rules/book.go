package rules

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
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
	data, err := readRegular(path, maxFile)
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

// readRegular reads a regular file (a symlink to one included), at most
// max+1 bytes. Anything else is refused without reading: a FIFO would
// block the open itself (so it is opened non-blocking), /dev/zero would
// never end.
func readRegular(path string, max int64) ([]byte, error) {
	// Any size opens: Parse says what is too large, from the first max+1
	// bytes.
	f, _, err := privfile.Open(path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
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
	merged.Sniff = Sniff{
		Commands: append(slices.Clone(o.Sniff.Commands), base.Sniff.Commands...),
		Argv:     append(slices.Clone(o.Sniff.Argv), base.Sniff.Argv...),
		Screen:   append(slices.Clone(o.Sniff.Screen), base.Sniff.Screen...),
		Title:    append(slices.Clone(o.Sniff.Title), base.Sniff.Title...),
	}
	merged.InputBox = base.InputBox
	if o.InputBox != nil {
		merged.InputBox = o.InputBox
	}
	merged.ReportSettle = base.ReportSettle
	if o.ReportSettle != 0 {
		merged.ReportSettle = o.ReportSettle
	}
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
	for _, agent := range b.Agents() {
		s := b.sets[agent]
		if slices.Contains(s.Sniff.Commands, name) || slices.Contains(s.Sniff.Commands, base) {
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
