package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// AgentCodex is Codex's agent name.
const AgentCodex = "codex"

// PinnedCodexVersion is the Codex CLI the suite is pinned to; the
// Makefile's `codex-cli` target installs the same one.
const PinnedCodexVersion = "0.169.0"

// CodexVersion is the Codex CLI the suite runs: the pinned one, or
// $MEW_E2E_CODEX_VERSION (`make e2e-codex-next` runs a newer release).
var CodexVersion = codexVersion(os.Getenv("MEW_E2E_CODEX_VERSION"))

func codexVersion(env string) string {
	if env == "" {
		return PinnedCodexVersion
	}
	return env
}

// FakeAPIKey is the key Codex sends to the stand-in Responses API (any
// value: the stand-in checks none; Codex wants one in env_key).
const FakeAPIKey = "sk-mew-e2e-0000"

// ErrNoCodex means the pinned Codex CLI is not installed; tests skip on it.
var ErrNoCodex = errors.New("the Codex CLI is not installed")

// codexTriple names the native binary's folder in the platform package.
func codexTriple(goos, goarch string) (pkg, triple string, err error) {
	switch goos + "/" + goarch {
	case "linux/amd64":
		return "codex-linux-x64", "x86_64-unknown-linux-musl", nil
	case "linux/arm64":
		return "codex-linux-arm64", "aarch64-unknown-linux-musl", nil
	case "darwin/amd64":
		return "codex-darwin-x64", "x86_64-apple-darwin", nil
	case "darwin/arm64":
		return "codex-darwin-arm64", "aarch64-apple-darwin", nil
	}
	return "", "", fmt.Errorf("Codex ships no native binary for %s/%s", goos, goarch)
}

// CodexDir is the npm prefix `make codex-cli` installs version into.
func CodexDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "codex-cli-"+version), nil
}

// FindCodex returns the native Codex binary of version ($MEW_E2E_CODEX, or
// the one `make codex-cli` installed) after checking its --version.
func FindCodex(version string) (string, error) {
	path := os.Getenv("MEW_E2E_CODEX")
	if path == "" {
		dir, err := CodexDir(version)
		if err != nil {
			return "", err
		}
		pkg, triple, err := codexTriple(runtime.GOOS, runtime.GOARCH)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", "@openai", pkg, "vendor", triple, "bin", "codex")
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: no %s (run `make codex-cli`)", ErrNoCodex, path)
		}
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCodex, path, err)
	}
	if got := strings.TrimSpace(string(out)); got != "codex-cli "+version {
		return "", fmt.Errorf("%s is %q, want codex-cli %s", path, got, version)
	}
	return path, nil
}

// CodexPackages returns the `packages` folder every run's CODEX_HOME links
// to. By default Codex copies its ~400 MB binary into $CODEX_HOME/packages
// when it first starts its app-server daemon; a seed CODEX_HOME in the
// cache does that once (`codex app-server daemon start`, then stop), under
// a lock so parallel tests wait for the first.
func CodexPackages(codex string) (string, error) {
	dir, err := CodexDir(CodexVersion)
	if err != nil {
		return "", err
	}
	seed := filepath.Join(dir, "daemon-seed")
	packages := filepath.Join(seed, ".codex", "packages")
	if err := os.MkdirAll(seed, 0o700); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(seed, ".lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer lock.Unlock()
	if _, err := os.Stat(filepath.Join(packages, "app-server-daemon", "current", "bin", "codex")); err == nil {
		return packages, nil
	}
	home := filepath.Join(seed, ".codex")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", err
	}
	env := []string{"HOME=" + seed, "CODEX_HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	for _, verb := range []string{"start", "stop"} {
		c := exec.Command(codex, "app-server", "daemon", verb)
		c.Env, c.Dir = env, seed
		if out, err := c.CombinedOutput(); err != nil {
			return "", fmt.Errorf("codex app-server daemon %s: %v\n%s", verb, err, out)
		}
	}
	killPidFile(filepath.Join(home, "app-server-daemon", "daemon-updater.pid"))
	if _, err := os.Stat(filepath.Join(packages, "app-server-daemon", "current", "bin", "codex")); err != nil {
		return "", fmt.Errorf("the daemon seed installed no daemon: %w", err)
	}
	return packages, nil
}

// codexConfig is the run's config.toml: the stand-in API as the model
// provider (Responses wire API, no retries, so an HTTP 500 fails the turn
// at once), approvals on request, a read-only sandbox (a command that
// writes asks), the project trusted.
func codexConfig(apiURL, project string) []byte {
	return []byte(fmt.Sprintf(`model = "gpt-5.1-codex"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, apiURL, project))
}

// prepareCodex makes the run's CODEX_HOME.
func (r *Run) prepareCodex() error {
	r.CodexHome = filepath.Join(r.Home, ".codex")
	if err := os.MkdirAll(r.CodexHome, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.CodexHome, "config.toml"), codexConfig(r.Opts.APIURL, r.Project), 0o600); err != nil {
		return err
	}
	if r.Opts.CodexPackages != "" {
		return os.Symlink(r.Opts.CodexPackages, filepath.Join(r.CodexHome, "packages"))
	}
	return nil
}

// RolloutEvent is one turn event of the session's rollout, as it appeared.
type RolloutEvent struct {
	At    time.Time // when Codex wrote the line (its timestamp), else Seen
	Seen  time.Time // when the driver saw the line
	File  string    // base name of the rollout file
	Event string    // task_started | task_complete | turn_aborted
	Error bool      // task_complete carried an error
}

// pollRollouts reads the rollout files under CODEX_HOME/sessions every
// interval and records each turn event as it appears.
func (r *recorder) pollRollouts(ctx context.Context, codexHome string, interval time.Duration) {
	offsets := map[string]int64{}
	partial := map[string][]byte{}
	reviews := map[string]bool{} // files of Codex's auto-reviewer (see addRollout)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		files, _ := filepath.Glob(filepath.Join(codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil || int64(len(b)) <= offsets[p] {
				continue
			}
			data := append(partial[p], b[offsets[p]:]...)
			offsets[p] = int64(len(b))
			for {
				i := bytes.IndexByte(data, '\n')
				if i < 0 {
					break
				}
				r.addRollout(filepath.Base(p), data[:i], reviews)
				data = data[i+1:]
			}
			partial[p] = append([]byte(nil), data...)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// addRollout records a turn event of a session's rollout. Codex's
// auto-review (approvals_reviewer = "auto_review") writes a rollout of its
// own for each review, with a turn of its own inside the session's: its
// session_meta marks it (thread_source "guardian_review"), and its events
// are only noted in the timeline, so they are never taken for the
// session's turn, nor its file for the session's.
func (r *recorder) addRollout(file string, line []byte, reviews map[string]bool) {
	var l struct {
		Timestamp time.Time `json:"timestamp"`
		Type      string    `json:"type"`
		Payload   struct {
			Type         string          `json:"type"`
			Error        json.RawMessage `json:"error"`
			ThreadSource string          `json:"thread_source"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil {
		return
	}
	if l.Type == "session_meta" && l.Payload.ThreadSource == "guardian_review" {
		reviews[file] = true
	}
	if l.Type != "event_msg" {
		return
	}
	switch l.Payload.Type {
	case "task_started", "task_complete", "turn_aborted":
	default:
		return
	}
	if reviews[file] {
		r.tl.Add(Entry{At: l.Timestamp, Source: "rollout", Text: "auto-review's " + l.Payload.Type})
		return
	}
	// The line's own time when it has one: this poll sees it up to an
	// interval late, and a check "before the turn ended" must not count
	// Mew's sample from that interval against it.
	seen := time.Now()
	at := seen
	if !l.Timestamp.IsZero() && l.Timestamp.Before(at) {
		at = l.Timestamp
	}
	ev := RolloutEvent{At: at, Seen: seen, File: file, Event: l.Payload.Type,
		Error: len(l.Payload.Error) > 0 && string(l.Payload.Error) != "null"}
	r.mu.Lock()
	r.rollout = append(r.rollout, ev)
	r.notify()
	r.mu.Unlock()
	text := ev.Event
	if ev.Error {
		text += " (error)"
	}
	r.tl.Add(Entry{At: ev.At, Source: "rollout", Text: text})
}

// Rollout returns the rollout events seen so far.
func (r *Run) Rollout() []RolloutEvent {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return append([]RolloutEvent(nil), r.rec.rollout...)
}

// WaitRollout waits for the first rollout event seen at or after since
// that ok accepts. (Seen, not At: a line Codex wrote as a key was being
// sent is stamped a moment before the driver's record of the key.)
func (r *Run) WaitRollout(since time.Time, ok func(RolloutEvent) bool, timeout time.Duration) (RolloutEvent, error) {
	var found RolloutEvent
	err := r.waitFor(timeout, func() bool {
		for _, e := range r.Rollout() {
			if !e.Seen.Before(since) && ok(e) {
				found = e
				return true
			}
		}
		return false
	})
	if err != nil {
		return RolloutEvent{}, fmt.Errorf("rollout: no wanted event within %v (seen %v)", timeout, r.Rollout())
	}
	return found, nil
}

// codexSessionID is the id in the newest rollout file's name.
func (r *Run) codexSessionID() string {
	ev := r.Rollout()
	for i := len(ev) - 1; i >= 0; i-- {
		base := strings.TrimSuffix(ev[i].File, ".jsonl")
		if len(base) > 36 {
			return base[len(base)-36:]
		}
	}
	return ""
}

// Codex's screens (0.169.0).
var (
	codexReview = regexp.MustCompile(`Hooks need review`)
	codexInput  = regexp.MustCompile(`(?m)^› `)
)

// AnswerHookReview answers Codex's start-up "Hooks need review" dialog as
// a person would: "2. Trust all and continue" (trust) or "3. Continue
// without trusting" (not).
func (r *Run) AnswerHookReview(trust bool, timeout time.Duration) error {
	shown, err := r.WaitScreen(r.Started, codexReview, timeout)
	if err != nil {
		return err
	}
	choice := "3"
	if trust {
		choice = "2"
	}
	if wait := time.Until(shown.At.Add(dialogSettle)); wait > 0 {
		time.Sleep(wait)
	}
	// A loaded Codex can miss a press while it draws the dialog (as
	// Answer finds): the choice and Enter are repeated while the review
	// stays on the screen. Both are idempotent on the dialog.
	for try := 1; ; try++ {
		if _, err := r.Keys(choice); err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
		at, err := r.Keys("Enter")
		if err != nil {
			return err
		}
		left := r.waitFor(2*dialogRetry, func() bool {
			for _, s := range r.Screens() {
				if s.At.After(at) && !codexReview.MatchString(s.Text) {
					return true
				}
			}
			return false
		})
		if left == nil {
			break
		}
		if try == dialogTries {
			return fmt.Errorf("the hook review stayed after %d answers; screen:\n%s", try, Excerpt(r.Screen(), 12))
		}
		r.TL.Addf(time.Now(), "note", "the hook review stayed %v after %s Enter: answering again", 2*dialogRetry, choice)
	}
	box, err := r.firstScreen(shown.At, func(s string) bool { return !codexReview.MatchString(s) && codexInput.MatchString(s) }, timeout)
	if err != nil {
		return err
	}
	return r.reviewLeft(box.At)
}

// reviewLeft waits for Mew to leave the hook review's wait (the dialog is
// one: nothing runs until it is answered) in both views, so a scenario
// starts from an idle Codex: the long-running view reads the pane at its
// next sweep (screen.SweepEvery), which can come after the scenario's
// first prompt, and that prompt's "never waiting" would see the review.
func (r *Run) reviewLeft(closed time.Time) error {
	notWaiting := func(sh session.Shown, listed bool) bool { return !listed || sh.State != session.Waiting }
	res := r.WaitMew(closed, screen.SweepEvery, 2*time.Second, notWaiting)
	if !res.Seen {
		return fmt.Errorf("Mew still showed the hook review's wait %v after it closed: %s", time.Since(closed).Round(time.Millisecond), ShownString(res.Shown))
	}
	r.TL.Addf(closed.Add(res.Hi), "note", "Mew left the hook review's wait %v–%v after it closed", res.Lo.Round(time.Millisecond), res.Hi.Round(time.Millisecond))
	return nil
}

// killCodexDaemon ends the run's app-server daemon and its pid-update loop:
// they outlive the TUI by design.
func (r *Run) killCodexDaemon() {
	for _, f := range []string{"daemon.pid", "daemon-updater.pid"} {
		killPidFile(filepath.Join(r.CodexHome, "app-server-daemon", f))
	}
}

// killPidFile ends the process a Codex pid file names (SIGTERM, then
// SIGKILL after 2 s), if its command line is Codex's.
func killPidFile(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var d struct {
		Pid int `json:"pid"`
	}
	if json.Unmarshal(b, &d) != nil || d.Pid <= 1 {
		return
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(d.Pid) + "/cmdline")
	if err == nil && !bytes.Contains(cmdline, []byte("codex")) {
		return // the pid was reused by something else
	}
	if syscall.Kill(d.Pid, syscall.SIGTERM) != nil {
		return
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && alive(d.Pid) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(d.Pid) {
		syscall.Kill(d.Pid, syscall.SIGKILL)
	}
}

// alive: the pid exists and is not a zombie (on this machine, orphans are
// not always reaped).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
