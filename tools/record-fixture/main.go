// Command record-fixture records real Claude Code runs as fixture folders in
// the format of testdata/fixtures/claude-code-2.1.328 (see its README.md): for each scenario,
// events.jsonl (every hook payload and every registry document, in time
// order), expect.jsonl (checkpoints derived from what the CLI itself
// reported), screen.raw (the bytes the CLI wrote to its terminal, via tmux
// pipe-pane) and screens.jsonl.
//
// It uses the end-to-end suite's stand-in API and driver, so a new Claude
// Code release can be recorded with one command:
//
//	make claude-code E2E_CLAUDE_VERSION=2.2.0   # installs that release
//	go run ./tools/record-fixture -version 2.2.0 -out /tmp/claude-code-2.2.0   # then copy what tests need into testdata/fixtures
//
// Claude Code runs the recorder itself as its hook (`record-fixture hook
// FILE`), which appends the payload with a timestamp.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/reducer"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "hook" {
		os.Exit(hookMain(os.Args[2:], os.Stdin))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// extraEvents are hook events of Claude Code 2.1.328 that Mew does not
// register for and that only observe (a hook on WorktreeCreate, Elicitation
// or MessageDisplay can change what the CLI does, so they are left out).
var extraEvents = []string{"PostToolBatch", "UserPromptExpansion", "PreModelSwitch", "PostModelSwitch", "Setup",
	"TeammateIdle", "TaskCreated", "TaskCompleted", "ConfigChange", "InstructionsLoaded", "CwdChanged", "DirectoryAdded"}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record-fixture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", driver.Version, "Claude Code version to record (installed by `make claude-code E2E_CLAUDE_VERSION=…`)")
	claude := fs.String("claude", "", "the Claude Code binary (default: the one `make claude-code` installed for -version)")
	out := fs.String("out", "", "the fixture folder to create (must not exist or be empty)")
	only := fs.String("scenarios", strings.Join(scenarioNames(), ","), "comma-separated scenarios to record")
	allEvents := fs.Bool("all-events", false, "also log the observe-only hook events Mew does not register for")
	rewrite := fs.Bool("rewrite-home", true, "rewrite the temporary home and project paths to /Users/dev and /Users/dev/proj, as in the shared fixtures")
	linger := fs.Duration("linger", 3*time.Second, "how long each run stays open after its last step (late notifications)")
	fs.DurationVar(&pace, "pace", pace, "how long the scripted person takes to act on what the CLI shows (60s shows the idle notifications)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: record-fixture -out DIR [-version V] [-scenarios a,b] [-all-events]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		fmt.Fprintf(stderr, "record-fixture: %s exists and is not empty; choose a new folder\n", *out)
		return 1
	}
	if _, err := driver.LookTmux(); err != nil {
		fmt.Fprintln(stderr, "record-fixture: tmux is not installed")
		return 1
	}
	bin := *claude
	if bin == "" {
		var err error
		if bin, err = driver.FindClaude(*version); err != nil {
			fmt.Fprintf(stderr, "record-fixture: %v\n", err)
			return 1
		}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "record-fixture: %v\n", err)
		return 1
	}
	events := append([]string(nil), reducer.Events...)
	if *allEvents {
		events = append(events, extraEvents...)
	}
	var chosen []scenario
	for _, name := range strings.Split(*only, ",") {
		sc, ok := scenarios[strings.TrimSpace(name)]
		if !ok {
			fmt.Fprintf(stderr, "record-fixture: unknown scenario %q (known: %s)\n", name, strings.Join(scenarioNames(), ", "))
			return 2
		}
		chosen = append(chosen, sc)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "record-fixture: %v\n", err)
		return 1
	}
	// Scenarios run one after another: a fixture's timing should show the
	// CLI, not a machine busy with the other recordings.
	var summaries []summary
	failed := 0
	for _, sc := range chosen {
		fmt.Fprintf(stdout, "recording %s … ", sc.name)
		rec := recording{claude: bin, self: self, events: events, rewrite: *rewrite, linger: *linger}
		sum, err := rec.record(sc, filepath.Join(*out, sc.name))
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "FAILED: %v\n", err)
			continue
		}
		summaries = append(summaries, sum)
		fmt.Fprintf(stdout, "%d hook events, %d registry documents, %d checkpoints\n", sum.hooks, sum.registry, sum.checkpoints)
	}
	if err := writeReadme(filepath.Join(*out, "README.md"), *version, events, summaries); err != nil {
		fmt.Fprintf(stderr, "record-fixture: %v\n", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// hookMain is the hook Claude Code runs: it appends {"ns", "doc"} to file.
// Like mew-hook it never writes to stdout and always exits 0, so it cannot
// change what the CLI does.
func hookMain(args []string, stdin io.Reader) int {
	now := time.Now().UnixNano()
	if len(args) != 1 {
		return 0
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, 4<<20))
	if err != nil || !json.Valid(payload) {
		return 0
	}
	line, err := json.Marshal(struct {
		Ns  int64           `json:"ns"`
		Doc json.RawMessage `json:"doc"`
	}{now, payload})
	if err != nil {
		return 0
	}
	lock := flock.New(args[0] + ".lock")
	if err := lock.Lock(); err != nil {
		return 0
	}
	defer lock.Unlock()
	f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 0
	}
	f.Write(append(line, '\n'))
	f.Close()
	return 0
}

// recording is one scenario's run.
type recording struct {
	claude, self string
	events       []string
	rewrite      bool
	linger       time.Duration
}

type screenMark struct {
	T          float64 `json:"t"`
	Registry   *string `json:"registry"`
	WaitingFor *string `json:"waitingFor"`
	RawBytes   int64   `json:"raw_bytes"`
}

type summary struct {
	name                         string
	what                         string
	hooks, registry, checkpoints int
	eventNames, notifications    map[string]int
	statuses                     map[string]int
	fields                       map[string]map[string]bool // event → top-level payload keys
	registryFields               map[string]bool
}

func (rec recording) record(sc scenario, dir string) (summary, error) {
	sum := summary{name: sc.name, what: sc.what}
	work, err := os.MkdirTemp("", "record-fixture-")
	if err != nil {
		return sum, err
	}
	defer os.RemoveAll(work)
	api, err := fakeapi.Start(fakeapi.DefaultTiming)
	if err != nil {
		return sum, err
	}
	defer api.Close()
	hookLog := filepath.Join(work, "hooks.jsonl")
	raw := filepath.Join(work, "screen.raw")
	var marksMu sync.Mutex
	var marks []screenMark
	var start time.Time
	mark := func(at time.Time, c *driver.RegChange) {
		fi, err := os.Stat(raw)
		n := int64(0)
		if err == nil {
			n = fi.Size()
		}
		m := screenMark{T: secs(at.Sub(start)), RawBytes: n}
		if c != nil && c.Doc != nil {
			if c.Doc.Status != "" {
				m.Registry = &c.Doc.Status
			}
			if c.Doc.WaitingFor != "" {
				m.WaitingFor = &c.Doc.WaitingFor
			}
		}
		marksMu.Lock()
		marks = append(marks, m)
		marksMu.Unlock()
	}
	opts := driver.Options{
		Claude: rec.claude, APIURL: api.URL, Dir: work, Args: sc.args, RawFile: raw,
		// The recording's raw bytes are the CLI's own, from its first:
		// no shell prompt or typed command line before them.
		Direct: true,
		Setup:  func(r *driver.Run) error { return writeHookSettings(r.ConfigDir, rec.self, hookLog, rec.events) },
		OnRegistry: func(c driver.RegChange) {
			mark(c.At, &c)
		},
	}
	if len(opts.Args) == 0 {
		opts.Args = []string{"--permission-mode", "default"}
	}
	r, err := driver.Launch(opts)
	if err != nil {
		return sum, err
	}
	start = r.Started
	mark(start, nil)
	stepErr := sc.drive(r, api)
	if stepErr == nil {
		time.Sleep(rec.linger)
	}
	// Kill the pane as a closed terminal would; the SessionEnd hook follows.
	before := countLines(hookLog)
	r.Close()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) && !hasEvent(hookLog, before, "SessionEnd") {
		time.Sleep(50 * time.Millisecond)
	}
	if stepErr != nil {
		return sum, stepErr
	}
	paths := rec.pathRewriter(r)
	evs, err := collectEvents(hookLog, r.Registry(), start, paths)
	if err != nil {
		return sum, err
	}
	expect := deriveCheckpoints(evs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sum, err
	}
	if err := writeJSONL(filepath.Join(dir, "events.jsonl"), evs); err != nil {
		return sum, err
	}
	if err := writeJSONL(filepath.Join(dir, "expect.jsonl"), expect); err != nil {
		return sum, err
	}
	screen, err := os.ReadFile(raw)
	if err != nil {
		return sum, err
	}
	marksMu.Lock()
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].T < marks[j].T })
	for i := range marks {
		// Offsets into the rewritten bytes: rewrite the prefix and measure.
		if n := marks[i].RawBytes; n <= int64(len(screen)) {
			marks[i].RawBytes = int64(len(paths(string(screen[:n]))))
		}
	}
	marksMu.Unlock()
	if err := os.WriteFile(filepath.Join(dir, "screen.raw"), []byte(paths(string(screen))), 0o644); err != nil {
		return sum, err
	}
	if err := writeJSONL(filepath.Join(dir, "screens.jsonl"), marks); err != nil {
		return sum, err
	}
	sum.checkpoints = len(expect)
	summarize(&sum, evs)
	return sum, nil
}

func secs(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

// pathRewriter maps the run's temporary paths to the fixtures' stable ones:
// the project, its encoded form in ~/.claude/projects, the home, and TMPDIR.
func (rec recording) pathRewriter(r *driver.Run) func(string) string {
	if !rec.rewrite {
		return func(s string) string { return s }
	}
	encode := regexp.MustCompile(`[^A-Za-z0-9]`)
	tmp := filepath.Join(filepath.Dir(r.Project), "tmp")
	rep := strings.NewReplacer(
		encode.ReplaceAllString(r.Project, "-"), "-Users-dev-proj",
		r.Project, "/Users/dev/proj",
		r.Home, "/Users/dev",
		tmp, "/tmp",
	)
	return rep.Replace
}

// writeHookSettings registers the recorder as the hook for events.
func writeHookSettings(configDir, self, logFile string, events []string) error {
	for _, p := range []string{self, logFile} {
		if strings.ContainsAny(p, "'\"\\$`\n ") {
			return fmt.Errorf("path %q cannot go into a hook command", p)
		}
	}
	cmd := fmt.Sprintf("'%s' hook '%s'", self, logFile)
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 10}}}}
	}
	b, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(configDir, "settings.json"), b, 0o600)
}

// event is one line of events.jsonl.
type event struct {
	T      float64         `json:"t"`
	Source string          `json:"source"`
	Doc    json.RawMessage `json:"doc"`
}

func collectEvents(hookLog string, reg []driver.RegChange, start time.Time, paths func(string) string) ([]event, error) {
	evs := []event{{T: 0, Source: "registry", Doc: json.RawMessage("null")}}
	f, err := os.Open(hookLog)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if f != nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			var l struct {
				Ns  int64           `json:"ns"`
				Doc json.RawMessage `json:"doc"`
			}
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			evs = append(evs, event{T: secs(time.Unix(0, l.Ns).Sub(start)), Source: "hook", Doc: compact(paths(string(l.Doc)))})
		}
	}
	for _, c := range reg {
		doc := json.RawMessage("null")
		if c.Raw != nil {
			doc = compact(paths(string(c.Raw)))
		}
		evs = append(evs, event{T: secs(c.At.Sub(start)), Source: "registry", Doc: doc})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].T < evs[j].T })
	return evs, nil
}

func compact(s string) json.RawMessage {
	var dst bytes.Buffer
	if err := json.Compact(&dst, []byte(s)); err != nil {
		return json.RawMessage("null")
	}
	return dst.Bytes()
}

func writeJSONL[T any](path string, items []T) error {
	var b strings.Builder
	for _, it := range items {
		line, err := json.Marshal(it)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}

func hasEvent(path string, after int, name string) bool {
	b, _ := os.ReadFile(path)
	lines := strings.Split(string(b), "\n")
	for i := after; i < len(lines); i++ {
		if strings.Contains(lines[i], `"hook_event_name":"`+name+`"`) {
			return true
		}
	}
	return false
}
