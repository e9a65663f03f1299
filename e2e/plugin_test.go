package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// Mew's Claude Code plugin (plugins/mew, listed by the repository's
// .claude-plugin/marketplace.json) against the real CLI, three ways: the
// copy `mew install --plugin` writes into the skills folder, the
// repository added as a local marketplace and installed with Claude Code's
// own `claude plugin install mew@mew`, and --plugin-dir without mew-hook.

// pluginSettings is the person's settings.json before anything: harmless
// to the run, and compared byte for byte afterwards.
const pluginSettings = "{\n  \"cleanupPeriodDays\": 30\n}\n"

// repoRoot is the repository: a Claude Code marketplace.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "marketplace.json")); err != nil {
		t.Fatal(err)
	}
	return root
}

// startWith starts Claude Code with no settings install of Mew's, after
// setup ran in the run's home.
func startWith(t *testing.T, args []string, setup func(r *driver.Run, s setup) error) *scen {
	t.Parallel()
	s := need(t)
	api, err := fakeapi.Start(fakeapi.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	r, err := driver.Launch(driver.Options{
		Claude: s.claude, APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew,
		Args:  append([]string{"--permission-mode", "default"}, args...),
		Setup: func(r *driver.Run) error { return setup(r, s) },
	})
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	sc := &scen{t: t, r: r, api: api}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			t.Logf("timeline:\n%s", r.TL.String())
		}
	})
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	return sc
}

func settingsPath(r *driver.Run) string { return filepath.Join(r.ConfigDir, "settings.json") }

func run(r *driver.Run, name string, args ...string) error {
	c := exec.Command(name, args...)
	c.Env, c.Dir = r.Env, r.Home
	out, err := c.CombinedOutput()
	r.TL.Addf(time.Now(), "note", "%s %v: %s", filepath.Base(name), args, firstLine(out))
	if err != nil {
		return &cmdError{name: filepath.Base(name), args: args, out: out, err: err}
	}
	return nil
}

type cmdError struct {
	name string
	args []string
	out  []byte
	err  error
}

func (e *cmdError) Error() string { return e.name + " failed: " + e.err.Error() + "\n" + string(e.out) }

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

// hookRecord is the session's hook state as mew-hook wrote it.
func hookRecord(t *testing.T, r *driver.Run) *session.HookState {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.MewHome, "sessions", r.SessionID()+".json"))
	if err != nil {
		return nil
	}
	var rec session.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("session file: %v", err)
	}
	return rec.Hook
}

// pluginPermission runs a permission prompt and checks that Mew shows it
// within fast and that the plugin's hook (not only the screen) reported it.
func pluginPermission(s *scen) {
	s.t.Helper()
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	var h *session.HookState
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if h = hookRecord(s.t, s.r); h != nil && h.State == session.Waiting {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	switch {
	case h == nil:
		s.t.Fatalf("the plugin's hook wrote no session record in %s", s.r.MewHome)
	case h.State != session.Waiting:
		s.t.Errorf("the plugin's hook says %s (%s), want waiting", h.State, h.Source)
	default:
		lag := h.Since.Sub(shown.screen)
		s.t.Logf("the plugin's hook recorded %s (%s) %v after the dialog was first captured", h.State, h.Source, lag.Round(time.Millisecond))
		if lag > fast {
			s.t.Errorf("the plugin's hook reported the prompt %v after it showed (goal %v)", lag, fast)
		}
	}
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
}

// `mew install --plugin` writes the plugin into Claude Code's skills
// folder; Claude Code loads it by itself and settings.json stays byte for
// byte what the person had.
func TestPluginSkillsCopy(t *testing.T) {
	var before []byte
	s := startWith(t, nil, func(r *driver.Run, s setup) error {
		before = []byte(pluginSettings)
		if err := os.WriteFile(settingsPath(r), before, 0o600); err != nil {
			return err
		}
		return run(r, s.mew, "install", "--plugin", "--yes")
	})
	pluginPermission(s)
	if after, _ := os.ReadFile(settingsPath(s.r)); !bytes.Equal(after, before) {
		t.Errorf("settings.json changed:\nbefore %q\nafter  %q", before, after)
	}
}

// The repository added as a local marketplace and mew@mew installed by
// Claude Code itself (what /plugin install does). Claude Code writes its
// own enabledPlugins and extraKnownMarketplaces into settings.json for
// that; Mew's install afterwards only copies mew-hook, and nothing changes
// settings.json from then on.
func TestPluginMarketplace(t *testing.T) {
	var before []byte
	s := startWith(t, nil, func(r *driver.Run, s setup) error {
		if err := os.WriteFile(settingsPath(r), []byte(pluginSettings), 0o600); err != nil {
			return err
		}
		if err := run(r, r.Opts.Claude, "plugin", "marketplace", "add", repoRoot(t)); err != nil {
			return err
		}
		if err := run(r, r.Opts.Claude, "plugin", "install", "mew@mew"); err != nil {
			return err
		}
		var err error
		if before, err = os.ReadFile(settingsPath(r)); err != nil {
			return err
		}
		if !bytes.Contains(before, []byte(`"mew@mew": true`)) {
			t.Errorf("claude plugin install did not enable mew@mew in settings.json:\n%s", before)
		}
		return run(r, s.mew, "install", "--yes")
	})
	if after, _ := os.ReadFile(settingsPath(s.r)); !bytes.Equal(after, before) {
		t.Errorf("mew install changed settings.json next to the plugin:\nbefore %s\nafter  %s", before, after)
	}
	pluginPermission(s)
	if after, _ := os.ReadFile(settingsPath(s.r)); !bytes.Equal(after, before) {
		t.Errorf("settings.json changed during the session:\nbefore %s\nafter  %s", before, after)
	}
	out, err := s.r.Mew("doctor", "--local")
	if !regexp.MustCompile(`ok +Mew's plugin mew@mew is installed through Claude Code`).MatchString(out) {
		t.Errorf("mew doctor does not see the plugin (%v):\n%s", err, out)
	}
}

// hookError is how Claude Code reports a failing hook on its screen.
var hookError = regexp.MustCompile(`(?i)hook (error|failed)|non-blocking status|hook.*(exit|status) code|mew-hook`)

// The plugin loaded with --plugin-dir and no mew-hook anywhere: the shim
// does nothing, and Claude Code shows no hook error, through a permission
// prompt and the turn's end.
func TestPluginWithoutBinaryIsSilent(t *testing.T) {
	plugin := filepath.Join(repoRoot(t), "plugins", "mew")
	s := startWith(t, []string{"--plugin-dir", plugin}, func(r *driver.Run, s setup) error {
		return os.WriteFile(settingsPath(r), []byte(pluginSettings), 0o600)
	})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.turnEnd(answered)
	if err := s.r.WaitSampleAfter(time.Now(), 5*time.Second); err != nil {
		t.Log(err)
	}
	for _, snap := range s.r.Screens() {
		if hookError.MatchString(snap.Text) {
			t.Errorf("Claude Code showed a hook error at %s:\n%s", s.r.TL.Rel(snap.At), driver.Excerpt(snap.Text, 12))
			break
		}
	}
	if h := hookRecord(t, s.r); h != nil {
		t.Errorf("a hook recorded the session without mew-hook installed: %+v", h)
	}
	if _, err := os.Stat(filepath.Join(s.r.MewHome, "mew-hook.log")); err == nil {
		t.Errorf("something ran mew-hook")
	}
}

// The control of TestPluginWithoutBinaryIsSilent: a plugin whose hook
// fails the way a missing binary would without the shim (exit 127, a
// message on stderr) is shown by Claude Code, so the check above can fail.
func TestPluginFailingHookIsShown(t *testing.T) {
	plugin := filepath.Join(t.TempDir(), "mew")
	if err := os.CopyFS(plugin, os.DirFS(filepath.Join(repoRoot(t), "plugins", "mew"))); err != nil {
		t.Fatal(err)
	}
	broken := "echo 'sh: 1: mew-hook: not found' >&2\nexit 127\n"
	if err := os.WriteFile(filepath.Join(plugin, "hooks", "mew-hook.sh"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startWith(t, []string{"--plugin-dir", plugin}, func(r *driver.Run, s setup) error {
		return os.WriteFile(settingsPath(r), []byte(pluginSettings), 0o600)
	})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.turnEnd(answered)
	s.r.WaitSampleAfter(time.Now(), 5*time.Second)
	for _, snap := range s.r.Screens() {
		if hookError.MatchString(snap.Text) {
			t.Logf("Claude Code showed the failing hook at %s:\n%s", s.r.TL.Rel(snap.At), driver.Excerpt(snap.Text, 12))
			return
		}
	}
	t.Errorf("Claude Code showed no error for a failing hook; last screen:\n%s", driver.Excerpt(s.r.Screen(), 20))
}

// A person who has both, Mew's settings.json entries and the plugin (here
// --plugin-dir, which Mew's install cannot see): Claude Code runs both
// hooks for every event, with the same payload, and mew-hook folds each
// event once: every folded event's second delivery is logged as dropped.
func TestPluginAndSettingsOneSetOfEvents(t *testing.T) {
	plugin := filepath.Join(repoRoot(t), "plugins", "mew")
	s := startWith(t, []string{"--plugin-dir", plugin}, func(r *driver.Run, s setup) error {
		return run(r, s.mew, "install", "--yes")
	})
	pluginPermission(s)
	// The last event's second delivery may still be on its way (a hook
	// process, or a spooled entry its lock holder folds): wait for the
	// count to settle, not a fixed time.
	var h *session.HookState
	var log []byte
	var twice int
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if h = hookRecord(t, s.r); h == nil {
			t.Fatal("no hook record")
		}
		log, _ = os.ReadFile(filepath.Join(s.r.MewHome, "mew-hook.log"))
		twice = bytes.Count(log, []byte("came twice"))
		if twice == h.EventCount || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("%d events folded, %d second deliveries dropped", h.EventCount, twice)
	if twice == 0 {
		t.Fatalf("no event came twice: the plugin's hooks did not run next to settings.json's\n%s", log)
	}
	if twice != h.EventCount {
		t.Logf("the payloads folded last, by when they came: %+v", h.Recent)
		t.Errorf("%d events folded but %d second deliveries dropped: some event was folded twice (or came once)\n%s", h.EventCount, twice, log)
	}
}
