package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/session"
)

// TestAPIKey is the key the CLI sends to the stand-in API. It has the shape
// of a real key so the CLI's checks accept it; it is approved in
// .claude.json so no "use this API key?" dialog shows.
const TestAPIKey = "sk-ant-api03-mew-e2e-" + "0000000000000000000000000000000000000000000000000000000000000000000000000000-AAAAAAAAAA"

// Options describe one run of Claude Code.
type Options struct {
	// Agent is the CLI to run: "" or "claude" (Claude Code), or
	// AgentCodex.
	Agent  string
	Claude string // the native binary (FindClaude)
	Codex  string // the native Codex binary (FindCodex)
	// CodexPackages is the shared daemon packages folder (CodexPackages).
	CodexPackages string
	// CodexArgs follow Codex's own --cd (e.g. --profile NAME).
	CodexArgs []string
	// Program is the CLI of the other agents (FindOpenCode, FindGemini).
	Program string
	// Command, when set, is typed in Program's place: its name on PATH
	// (as an npm global install's bin/<name> link starts it), while the
	// run's setup still finds the package by Program.
	Command string
	APIURL  string   // the stand-in Messages API
	Dir     string   // an empty directory that holds everything of the run
	Args    []string // extra CLI arguments, e.g. --permission-mode plan
	Cols    int      // pane size; 120×32 when zero, like the fixtures
	Rows    int
	Mew     string // the mew binary; "" runs without Mew (no install, no sampling)
	Install bool   // run `mew install` into the isolated home first
	// Wrap is put before the CLI's command line (e.g. mew run --).
	Wrap []string
	// MewWatch makes the long-running `mew status --watch --json --feed`
	// (the watcher, as the app and the board run it) the primary samples
	// (Samples). Both kinds are always sampled and judged: a one-shot
	// `mew status --json` every MewEvery and one watcher for the run.
	MewWatch bool
	// Direct runs the CLI as the pane's own program; by default it is
	// typed into an interactive shell in the pane, as a person does.
	Direct bool
	// Setup runs after the home is made and before the CLI starts (the
	// fixture recorder adds its own hooks there).
	Setup func(r *Run) error
	// RawFile, when set, receives every byte the CLI writes to its terminal.
	RawFile string
	// MewEvery is the `mew status --json` sampling period (100 ms when 0).
	MewEvery time.Duration
	// ObserveHooks lists hook events the driver logs with a hook of its own,
	// added to settings.json (Codex: hooks.json) after `mew install` (see
	// Run.Hooks).
	ObserveHooks []string
	// OnRegistry, when set, sees every registry change as it is recorded
	// (the fixture recorder notes how much screen output existed then).
	OnRegistry func(RegChange)
	Timeline   *Timeline
	// AnyID judges Mew's only session, whatever its id: with no hooks
	// Mew names a session by its pane, not by the agent's own id (which
	// the driver's observer reports).
	AnyID bool
	// NoObserver leaves out the kit's observer (Gemini CLI: hooks of the
	// driver's own in its settings), so the CLI runs as a person's with
	// nothing installed does: a hook changes what it draws. Run.Hooks is
	// then empty.
	NoObserver bool
}

// Run is a live Claude Code session in its own tmux server and home.
type Run struct {
	Opts      Options
	Home      string // HOME
	ConfigDir string // CLAUDE_CONFIG_DIR
	MewHome   string // MEW_HOME
	CodexHome string // CODEX_HOME (Codex runs)
	Project   string // the CLI's working directory (trusted)
	Env       []string
	Tmux      *Tmux
	TL        *Timeline
	Started   time.Time // when the CLI was started in the pane

	// MewEnv, when Setup sets it, is the environment `mew status --json`
	// is sampled with (another machine's Mew, for a session on a remote);
	// Env otherwise.
	MewEnv []string

	rec    *recorder
	cancel context.CancelFunc
	done   chan struct{}
}

// isolatedEnv is the run's whole environment: nothing of the caller's leaks
// in except PATH, so the person's (or an outer agent's) Claude settings,
// keys and tmux never reach the run, and the CLI talks only to the stand-in.
func isolatedEnv(home, configDir, mewHome, tmp, apiURL string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{
		"PATH=" + path,
		"HOME=" + home,
		"USER=mew-e2e",
		"SHELL=/bin/sh",
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"TMPDIR=" + tmp,
		"CLAUDE_CONFIG_DIR=" + configDir,
		"MEW_HOME=" + mewHome,
		"ANTHROPIC_BASE_URL=" + apiURL,
		"ANTHROPIC_API_KEY=" + TestAPIKey,
		// Everything that would phone home: updates, telemetry, error
		// reports, the plugin marketplace; NONESSENTIAL_TRAFFIC covers the
		// rest (feature flags, release notes).
		// The scenarios run in parallel on one process table: Mew's process
		// scan would list every other scenario's CLI in this one's `mew
		// status` (procscan has its own tests against real processes).
		"MEW_PROCSCAN=off",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_UPDATES=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
	}
}

// claudeJSON is the CLI's global state file: onboarding done, the project
// trusted (no trust dialog), the test key approved (no key dialog; the CLI
// remembers a key by its last 20 characters), the auto-mode notice seen.
func claudeJSON(project string) ([]byte, error) {
	return json.MarshalIndent(map[string]any{
		"hasCompletedOnboarding":   true,
		"hasSeenAutoDefaultNotice": true,
		"projects": map[string]any{
			project: map[string]any{"hasTrustDialogAccepted": true},
		},
		"customApiKeyResponses": map[string]any{
			"approved": []string{TestAPIKey[len(TestAPIKey)-20:]},
			"rejected": []string{},
		},
	}, "", "  ")
}

// TmuxSocket is the run's tmux server's socket (known before it starts,
// for Options.Setup).
func (r *Run) TmuxSocket() string { return filepath.Join(filepath.Dir(r.Home), "tmux.sock") }

// Launch makes the isolated home, installs Mew's hooks when asked, types
// the CLI's command line into an interactive shell in a tmux pane (as the
// pane's own program with Options.Direct) and starts watching it: its
// screen, registry, hooks, and Mew both ways (one-shot and long-running).
func Launch(o Options) (*Run, error) {
	r, root, err := prepare(o)
	if err != nil {
		return nil, err
	}
	o = r.Opts
	hookLog := filepath.Join(root, "observed-hooks.jsonl")
	program := o.Claude
	k := r.kit()
	switch {
	case k != nil:
		program = o.Program
	case r.codex():
		program = o.Codex
	}
	// Mew reads this run's tmux server (its screen source), as it would
	// read the person's.
	r.Env = append(r.Env, "MEW_TMUX_SOCKET="+r.TmuxSocket())
	t, err := StartTmux(r.Project, r.TmuxSocket(), r.Env, o.Cols, o.Rows)
	if err != nil {
		return nil, err
	}
	r.Tmux = t
	if err := t.Control(); err != nil {
		r.TL.Addf(time.Now(), "note", "no tmux control client (%v): capturing with one process per capture", err)
	}
	if o.RawFile != "" {
		if err := t.PipeTo(o.RawFile); err != nil {
			t.Kill()
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.rec.mewID = r.SessionID
	r.rec.onReg = o.OnRegistry
	r.Started = time.Now()
	args := o.Args
	if k != nil && len(args) == 0 {
		args = k.args(r)
	}
	if r.codex() && len(args) == 0 {
		// More than one word: tmux runs it directly, as a shell runs a job,
		// not under `sh -c` (which would stay the pane's foreground process
		// and hide Codex from the screen source). Not a -c override: those
		// make Codex run without its app-server daemon (measured).
		args = append([]string{"--cd", r.Project}, o.CodexArgs...)
	}
	if o.Command != "" {
		program = o.Command
	}
	argv := append(append(append([]string(nil), o.Wrap...), program), args...)
	how := "started"
	if o.Direct {
		err = t.Respawn(r.Project, argv...)
	} else {
		r.Started, err = t.startInShell(r.Project, argv)
		how = "typed into the shell:"
	}
	if err != nil {
		cancel()
		t.Kill()
		return nil, err
	}
	r.TL.Addf(r.Started, "key", "%s %s %s", how, filepath.Base(program), strings.Join(args, " "))
	n := 3
	if o.Mew != "" {
		n++ // the one-shot sampler; the watcher counts itself below
	}
	finished := make(chan struct{}, n+2)
	if r.codex() {
		n++
		go func() { r.rec.pollRollouts(ctx, r.CodexHome, 20*time.Millisecond); finished <- struct{}{} }()
	}
	go func() { r.rec.sampleScreen(ctx, t, 50*time.Millisecond); finished <- struct{}{} }()
	go func() {
		r.rec.pollRegistry(ctx, filepath.Join(r.ConfigDir, "sessions"), 20*time.Millisecond, r.rec.latestScreen)
		finished <- struct{}{}
	}()
	go func() { r.rec.pollHooks(ctx, hookLog, 20*time.Millisecond); finished <- struct{}{} }()
	if o.Mew != "" {
		env := r.Env
		if r.MewEnv != nil {
			env = r.MewEnv
		}
		r.rec.primaryWatch = o.MewWatch && r.MewEnv == nil
		if r.MewEnv == nil {
			n++
			go func() { r.rec.watchMew(ctx, o.Mew, env, o.MewEvery); finished <- struct{}{} }()
		}
		// Sampled through another machine (MewEnv: a remote scenario), only
		// the one-shot kind is judged: the watcher's --feed lists this
		// machine's own sessions, never a remote's.
		go func() { r.rec.sampleMew(ctx, o.Mew, env, o.MewEvery); finished <- struct{}{} }()
	}
	go func() {
		for i := 0; i < n; i++ {
			<-finished
		}
		close(r.done)
	}()
	return r, nil
}

// prepare makes the isolated home of a run (Mew installed and observer
// hooks added when asked) and returns it with the run's root directory.
func prepare(o Options) (*Run, string, error) {
	if o.Cols == 0 {
		o.Cols, o.Rows = 120, 32
	}
	if o.MewEvery == 0 {
		o.MewEvery = 100 * time.Millisecond
	}
	root, err := filepath.EvalSymlinks(o.Dir) // the CLI keys projects by real path
	if err != nil {
		return nil, "", err
	}
	home := filepath.Join(root, "home")
	r := &Run{
		Opts:      o,
		Home:      home,
		ConfigDir: filepath.Join(home, ".claude"),
		MewHome:   filepath.Join(home, ".mew"),
		Project:   filepath.Join(root, "proj"),
		TL:        o.Timeline,
		done:      make(chan struct{}),
	}
	if r.TL == nil {
		r.TL = NewTimeline(time.Now())
	}
	r.rec = newRecorder(r.TL)
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{r.ConfigDir, r.Project, tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, "", err
		}
	}
	k := r.kit()
	if k != nil {
		if err := k.prepare(r); err != nil {
			return nil, "", err
		}
	} else if r.codex() {
		if err := r.prepareCodex(); err != nil {
			return nil, "", err
		}
	} else {
		cj, err := claudeJSON(r.Project)
		if err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(filepath.Join(r.ConfigDir, ".claude.json"), cj, 0o600); err != nil {
			return nil, "", err
		}
	}
	r.Env = isolatedEnv(r.Home, r.ConfigDir, r.MewHome, tmp, o.APIURL)
	if r.codex() {
		r.Env = append(r.Env, "CODEX_HOME="+r.CodexHome, "FAKE_API_KEY="+FakeAPIKey)
	}
	if k != nil {
		r.Env = append(r.Env, k.env(r)...)
	}
	if o.Install {
		if o.Mew == "" {
			return nil, "", errors.New("Install needs the mew binary")
		}
		if err := r.mewInstall(); err != nil {
			return nil, "", err
		}
	}
	hookLog := filepath.Join(root, "observed-hooks.jsonl")
	if len(o.ObserveHooks) > 0 {
		settings := filepath.Join(r.ConfigDir, "settings.json")
		if r.codex() {
			settings = filepath.Join(r.CodexHome, "hooks.json") // Claude Code's shape, seconds
		}
		if err := addObserverHooks(settings, hookLog, o.ObserveHooks, 5); err != nil {
			return nil, "", err
		}
	}
	if k != nil && !o.NoObserver {
		if err := k.observe(r, hookLog); err != nil {
			return nil, "", err
		}
	}
	if o.Setup != nil {
		if err := o.Setup(r); err != nil {
			return nil, "", err
		}
	}
	return r, root, nil
}

// mewInstall runs `mew install` in the isolated home, the way a person would.
func (r *Run) mewInstall() error {
	args := []string{"install", "--yes"}
	if a := r.Opts.Agent; a != "" && a != "claude" {
		args = append(args, "--agent", a)
	}
	c := exec.Command(r.Opts.Mew, args...)
	c.Env = r.Env
	c.Dir = r.Home
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("mew install: %v\n%s", err, out)
	}
	r.TL.Addf(time.Now(), "note", "mew install: %s", firstLine(string(out)))
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Close stops watching, kills the tmux server (the CLI gets SIGHUP, as when
// a terminal closes) and waits briefly for the CLI to go.
func (r *Run) Close() {
	pid := 0
	if r.Tmux != nil {
		if st, err := r.Tmux.Pane(); err == nil && !st.Dead {
			pid = st.Pid
		}
	}
	if r.cancel != nil {
		r.cancel()
		<-r.done
	}
	if r.Tmux != nil {
		r.Tmux.Kill()
	}
	if r.codex() {
		r.killCodexDaemon()
	}
	if r.Opts.Agent == AgentCline {
		if pid := r.killClineHub(); pid > 0 {
			r.TL.Addf(time.Now(), "note", "ended Cline's hub daemon (pid %d), which outlives the TUI", pid)
		}
		if pids := r.KillLeftovers(); len(pids) > 0 { // a daemon started after the wait
			r.TL.Addf(time.Now(), "note", "ended what Cline left running in the run's folder: %v", pids)
		}
	}
	if pid > 0 {
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) && syscall.Kill(pid, 0) == nil {
			time.Sleep(20 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	r.reapLeftovers()
}

// SessionID is the CLI's session id from its registry file ("" before it
// is written).
func (r *Run) SessionID() string {
	if r.Opts.AnyID {
		return ""
	}
	if r.codex() {
		return r.codexSessionID()
	}
	if r.kit() != nil {
		return r.hookSessionID()
	}
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	for i := len(r.rec.reg) - 1; i >= 0; i-- {
		if d := r.rec.reg[i].Doc; d != nil && d.SessionID != "" {
			return d.SessionID
		}
	}
	return ""
}

// Registry returns every registry change seen so far, in order.
func (r *Run) Registry() []RegChange {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return sortedReg(r.rec.reg)
}

// Screens returns every distinct screen captured so far.
func (r *Run) Screens() []Snap {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return append([]Snap(nil), r.rec.screens...)
}

// Samples returns Mew's primary samples so far: the one-shot ones, or the
// watcher's with Options.MewWatch.
func (r *Run) Samples() []Sample {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	if r.rec.primaryWatch {
		return append([]Sample(nil), r.rec.watched...)
	}
	return append([]Sample(nil), r.rec.samples...)
}

// SamplesOf returns the samples of one kind (ModeOnce, ModeWatch).
func (r *Run) SamplesOf(mode string) []Sample {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return append([]Sample(nil), r.rec.byMode()[mode]...)
}

// sampledModes are the kinds of samples taken in this run, each with its
// samples so far: both kinds once Mew is sampled at all.
func (r *Run) sampledModes() map[string][]Sample {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	out := map[string][]Sample{}
	for mode, ss := range r.rec.byMode() {
		if len(ss) > 0 || (mode == ModeWatch) == r.rec.primaryWatch {
			out[mode] = append([]Sample(nil), ss...)
		}
	}
	return out
}

// Screen is the latest capture.
func (r *Run) Screen() string { return r.rec.latestScreen() }

// ErrTimeout is returned by the Wait functions.
var ErrTimeout = errors.New("timed out")

// waitFor calls check after every new observation until it reports done or
// timeout passes.
func (r *Run) waitFor(timeout time.Duration, check func() bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		if check() {
			return nil
		}
		if err := r.rec.wait(ctx); err != nil {
			if check() {
				return nil
			}
			return ErrTimeout
		}
	}
}

// WaitScreen waits for the first capture at or after since that matches re.
func (r *Run) WaitScreen(since time.Time, re *regexp.Regexp, timeout time.Duration) (Snap, error) {
	found, err := r.firstScreen(since, re.MatchString, timeout)
	if err != nil {
		return Snap{}, fmt.Errorf("screen never matched %q within %v; it shows:\n%s", re, timeout, Excerpt(r.Screen(), 12))
	}
	r.TL.Add(Entry{At: found.At, Source: "screen", Text: fmt.Sprintf("shows %q", re.String()), Detail: Excerpt(found.Text, 8)})
	return found, nil
}

// WaitScreenFunc waits for the first capture at or after since for which
// ok is true (what says so, for the timeline and the error).
func (r *Run) WaitScreenFunc(since time.Time, what string, ok func(string) bool, timeout time.Duration) (Snap, error) {
	found, err := r.firstScreen(since, ok, timeout)
	if err != nil {
		return Snap{}, fmt.Errorf("the screen never showed %s within %v; it shows:\n%s", what, timeout, Excerpt(r.Screen(), 12))
	}
	r.TL.Add(Entry{At: found.At, Source: "screen", Text: "shows " + what, Detail: Excerpt(found.Text, 8)})
	return found, nil
}

// firstScreen waits for the first capture at or after since for which ok
// is true.
func (r *Run) firstScreen(since time.Time, ok func(string) bool, timeout time.Duration) (Snap, error) {
	var found Snap
	err := r.waitFor(timeout, func() bool {
		for _, s := range r.Screens() {
			if !s.At.Before(since) && ok(s.Text) {
				found = s
				return true
			}
		}
		return false
	})
	return found, err
}

// WaitRegistry waits for the first registry change at or after since that
// satisfies ok.
func (r *Run) WaitRegistry(since time.Time, ok func(RegChange) bool, timeout time.Duration) (RegChange, error) {
	var found RegChange
	err := r.waitFor(timeout, func() bool {
		for _, c := range r.Registry() {
			if !c.At.Before(since) && ok(c) {
				found = c
				return true
			}
		}
		return false
	})
	if err != nil {
		last := "nothing"
		if reg := r.Registry(); len(reg) > 0 {
			last = reg[len(reg)-1].String()
		}
		return RegChange{}, fmt.Errorf("registry: no wanted change within %v (last: %s)", timeout, last)
	}
	return found, nil
}

// Status is a registry predicate: the CLI reports status (and, when
// waitingFor is not empty, that reason).
func Status(status string) func(RegChange) bool {
	return func(c RegChange) bool { return c.Doc != nil && c.Doc.Status == status }
}

// Gone is a registry predicate: the file was removed.
func Gone(c RegChange) bool { return c.Raw == nil }

// Type types text into the pane and records it.
func (r *Run) Type(text string) (time.Time, error) {
	at := time.Now() // as Keys: the moment before sending
	err := r.Tmux.Type(text)
	r.TL.Addf(at, "key", "typed %q", text)
	return at, err
}

// Keys presses keys and returns the moment it started sending them.
func (r *Run) Keys(keys ...string) (time.Time, error) {
	// The moment before sending: the CLI may act on the keys (write its
	// rollout, a hook) before `tmux send-keys` has returned, and what it
	// does is looked for from this moment on.
	at := time.Now()
	err := r.Tmux.Keys(keys...)
	r.TL.Addf(at, "key", "pressed %s", strings.Join(keys, " "))
	return at, err
}

// Submit types a prompt, waits for the CLI to echo it in its input box, and
// presses Enter; it returns when Enter was sent.
func (r *Run) Submit(prompt string) (time.Time, error) {
	since, err := r.Type(prompt)
	if err != nil {
		return time.Time{}, err
	}
	box := `❯.*`
	if r.codex() {
		box = `› .*`
	} else if k := r.kit(); k != nil {
		box = k.box
	}
	if _, err := r.WaitScreen(since.Add(-time.Second), regexp.MustCompile(box+regexp.QuoteMeta(prompt)), 10*time.Second); err != nil {
		return time.Time{}, err
	}
	return r.Keys("Enter")
}

// inputBox is the CLI's prompt line; it puts a no-break space after ❯.
var inputBox = regexp.MustCompile(`(?m)^❯[ \x{a0}]`)

// codex reports whether the run is Codex's.
func (r *Run) codex() bool { return r.Opts.Agent == AgentCodex }

// WaitReady waits until the CLI shows its input box and reports idle.
func (r *Run) WaitReady(timeout time.Duration) error {
	if k := r.kit(); k != nil {
		if _, err := r.WaitScreen(r.Started, k.ready, timeout); err != nil || k.settle == nil {
			return err
		}
		return k.settle(r, timeout)
	}
	if r.codex() {
		_, err := r.WaitScreen(r.Started, codexInput, timeout)
		return err
	}
	if _, err := r.WaitRegistry(r.Started, Status("idle"), timeout); err != nil {
		return fmt.Errorf("the CLI never became ready: %w; screen:\n%s", err, Excerpt(r.Screen(), 12))
	}
	_, err := r.WaitScreen(r.Started, inputBox, timeout)
	return err
}

// MewResult is the outcome of waiting for Mew to reach a state.
//
// A `mew status` sample shows Mew's state at some instant between its start
// and its end, so a latency is known only within bounds: Hi is the end of
// the first sample that showed the state (Mew was there by then), Lo the
// start of the last sample before it that did not (Mew was not there
// before that). OK is true when Mew was not provably past the ceiling
// (Lo ≤ Ceiling(goal): a scenario fails only then, see judge.go); OnGoal
// when it was not provably late (Lo ≤ goal); Certain when it was provably
// on time (Hi ≤ goal).
//
// Both kinds of samples are judged (one-shot `mew status --json` and the
// long-running `mew status --watch --json`): the result is the worse of
// the two (OK, OnGoal, Seen and Certain only when both are; Lo and Hi the
// later), with each kind's own in Modes.
type MewResult struct {
	OK, OnGoal, Certain bool
	Seen                bool          // some sample showed the state before giving up
	Sample              Sample        // the first sample that matched, or the last one looked at
	Shown               session.Shown // Mew's view of the session in Sample
	Lo, Hi              time.Duration // bounds of the latency after the reference time
	// Modes is each kind's result (ModeOnce, ModeWatch), for the ones
	// sampled.
	Modes map[string]MewResult
}

// WaitMew waits until a sample of each kind that ended at or after ref
// shows the session in a state that satisfies want. It gives up at
// ref+Ceiling(goal)+grace, so a late change is still measured.
func (r *Run) WaitMew(ref time.Time, goal, grace time.Duration, want func(session.Shown, bool) bool) MewResult {
	deadline := waitUntil(ref, goal, grace)
	modes := map[string]MewResult{}
	r.waitFor(time.Until(deadline)+50*time.Millisecond, func() bool {
		id := r.SessionID()
		all := true
		for mode, samples := range r.sampledModes() {
			res, seen := judgeSamples(samples, id, ref, want)
			modes[mode] = res
			all = all && seen
		}
		return all && len(modes) > 0
	})
	var res MewResult
	first := true
	for _, mode := range []string{ModeOnce, ModeWatch} {
		m, ok := modes[mode]
		if !ok {
			continue
		}
		judge(&m, goal)
		modes[mode] = m
		worse := !m.Seen && res.Seen || (m.Seen == res.Seen && m.Hi > res.Hi)
		if first || worse {
			res.Sample, res.Shown = m.Sample, m.Shown
		}
		if first {
			res.OK, res.OnGoal, res.Certain, res.Seen = true, true, true, true
			first = false
		}
		res.OK = res.OK && m.OK
		res.OnGoal = res.OnGoal && m.OnGoal
		res.Certain = res.Certain && m.Certain
		res.Seen = res.Seen && m.Seen
		res.Lo, res.Hi = max(res.Lo, m.Lo), max(res.Hi, m.Hi)
	}
	if first {
		res.OK, res.OnGoal, res.Certain, res.Seen = false, false, false, false
	}
	res.Hi = max(res.Hi, res.Lo) // a kind never seen has no Hi of its own
	res.Modes = modes
	return res
}

// judgeSamples is one kind's WaitMew over the samples so far; it reports
// whether the state was seen.
func judgeSamples(samples []Sample, id string, ref time.Time, want func(session.Shown, bool) bool) (MewResult, bool) {
	var res MewResult
	lastMiss := time.Time{}
	for _, s := range samples {
		if s.End.Before(ref) || s.Err != "" {
			continue
		}
		sh, ok := s.Find(id)
		res.Sample, res.Shown = s, sh
		if want(sh, ok) {
			res.Seen = true
			res.Hi = s.End.Sub(ref)
			if lastMiss.After(ref) {
				res.Lo = lastMiss.Sub(ref)
			}
			return res, true
		}
		lastMiss = s.Start
	}
	if lastMiss.After(ref) {
		res.Lo = lastMiss.Sub(ref)
	}
	return res, false
}

// WaitSampleAfter waits until a `mew status` sample has started after t.
func (r *Run) WaitSampleAfter(t time.Time, timeout time.Duration) error {
	return r.waitFor(timeout, func() bool {
		s := r.Samples()
		return len(s) > 0 && s[len(s)-1].Start.After(t)
	})
}

// MewDuring returns the samples, of both kinds, that lie wholly inside
// [from, to] and show the session in a state for which bad is true.
func (r *Run) MewDuring(from, to time.Time, bad func(session.Shown, bool) bool) []Sample {
	id := r.SessionID()
	var out []Sample
	modes := r.sampledModes()
	for _, s := range append(modes[ModeOnce], modes[ModeWatch]...) {
		if s.Start.Before(from) || s.End.After(to) || s.Err != "" {
			continue
		}
		sh, ok := s.Find(id)
		if bad(sh, ok) {
			out = append(out, s)
		}
	}
	return out
}

// SamplesIn counts the good samples wholly inside [from, to].
func (r *Run) SamplesIn(from, to time.Time) int {
	n := 0
	for _, s := range r.Samples() {
		if !s.Start.Before(from) && !s.End.After(to) && s.Err == "" {
			n++
		}
	}
	return n
}

// Dialog timing. Claude Code 2.1.328 drops keys that arrive within about
// 0.1 s of a dialog appearing (measured: Enter 50-100 ms after the dialog
// showed was sometimes ignored, never at 120 ms or later), so a stray
// keystroke cannot answer a permission prompt.
const (
	dialogSettle = 300 * time.Millisecond  // a person's quickest answer, as in the fixtures
	dialogRetry  = 1500 * time.Millisecond // a press still not taken by then is repeated
	dialogTries  = 3
)

// Answered says when a dialog was answered.
type Answered struct {
	Pressed time.Time // the press the CLI took was sent
	Gone    time.Time // the first capture without the dialog
	Presses int       // more than 1 when the CLI ignored a press
}

// Answer presses keys on the dialog that first showed at shownAt (matched by
// dialog) and returns when the press the CLI took was sent and when the
// dialog left the screen.
func (r *Run) Answer(dialog *regexp.Regexp, shownAt time.Time, keys ...string) (Answered, error) {
	if wait := time.Until(shownAt.Add(dialogSettle)); wait > 0 {
		time.Sleep(wait)
	}
	for try := 1; try <= dialogTries; try++ {
		at, err := r.Keys(keys...)
		if err != nil {
			return Answered{}, err
		}
		// Taken when the dialog leaves the screen or the registry leaves
		// "waiting", whichever the CLI gets to first: a loaded CLI can be
		// slow to redraw, and a second press must not reach the next screen.
		taken := r.waitFor(dialogRetry, func() bool {
			for _, s := range r.Screens() {
				if s.At.After(at) && !dialog.MatchString(s.Text) {
					return true
				}
			}
			for _, c := range r.Registry() {
				if c.At.After(at) && c.Doc != nil && c.Doc.Status != "" && c.Doc.Status != "waiting" {
					return true
				}
			}
			return false
		})
		if taken == nil {
			gone, err := r.firstScreen(at, func(s string) bool { return !dialog.MatchString(s) }, 10*time.Second)
			if err != nil {
				return Answered{}, fmt.Errorf("the registry left waiting but the dialog %q stays on the screen:\n%s", dialog, Excerpt(r.Screen(), 12))
			}
			r.TL.Add(Entry{At: gone.At, Source: "screen", Text: "the dialog is gone", Detail: Excerpt(gone.Text, 6)})
			return Answered{Pressed: at, Gone: gone.At, Presses: try}, nil
		}
		r.TL.Addf(time.Now(), "note", "neither screen nor registry changed %v after %s: pressing again", dialogRetry, strings.Join(keys, " "))
	}
	return Answered{}, fmt.Errorf("the dialog %q stayed after %d presses of %s; screen:\n%s", dialog, dialogTries, strings.Join(keys, " "), Excerpt(r.Screen(), 12))
}
