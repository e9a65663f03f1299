package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// codexAtLeast says whether version (major.minor.patch) is at least
// major.minor.
func codexAtLeast(version string, major, minor int) bool {
	var a, b, c int
	if n, _ := fmt.Sscanf(version, "%d.%d.%d", &a, &b, &c); n < 2 {
		return false
	}
	return a > major || (a == major && b >= minor)
}

// codexMarketplace copies the repository's marketplace (its manifest and
// the mew plugin) into dir, so a test can publish an update of it.
func codexMarketplace(t *testing.T, dir string) {
	t.Helper()
	root := repoRoot(t)
	if err := os.CopyFS(filepath.Join(dir, ".claude-plugin"), os.DirFS(filepath.Join(root, ".claude-plugin"))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "plugins", "mew"), os.DirFS(filepath.Join(root, "plugins", "mew"))); err != nil {
		t.Fatal(err)
	}
}

// bumpPluginVersion publishes a new version of the plugin in the
// marketplace at dir (what a Mew release does), hooks unchanged.
func bumpPluginVersion(t *testing.T, dir, from, to string) {
	t.Helper()
	for _, m := range []string{".codex-plugin", ".claude-plugin"} {
		p := filepath.Join(dir, "plugins", "mew", m, "plugin.json")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		old := []byte(`"version": "` + from + `"`)
		if !bytes.Contains(data, old) {
			t.Fatalf("%s has no %s", p, old)
		}
		os.WriteFile(p, bytes.Replace(data, old, []byte(`"version": "`+to+`"`), 1), 0o644)
	}
}

// codexTrustEntry is one hook trust entry Codex wrote into config.toml.
var codexTrustEntry = regexp.MustCompile(`(?m)^\[hooks\.state\."([^"]+)"\]\s*\n\s*(trusted_hash = "[^"]+"(?:\s*\n\s*trusted_content_hash = "[^"]+")?)`)

// codexTrust maps the trust entries' keys to their hashes (the hook's, and
// for a plugin's hook the plugin content's).
func codexTrust(t *testing.T, r *driver.Run) map[string]string {
	data, _ := os.ReadFile(filepath.Join(r.CodexHome, "config.toml"))
	out := map[string]string{}
	for _, m := range codexTrustEntry.FindAllStringSubmatch(string(data), -1) {
		out[m[1]] = strings.Join(strings.Fields(m[2]), " ")
	}
	return out
}

// Mew's Codex plugin, from the repository as a local marketplace (`codex
// plugin marketplace add`, `codex plugin add mew@mew`), with mew-hook in
// $MEW_HOME/bin and no hooks.json: Codex asks to trust the plugin's hooks,
// and once trusted they report the approval dialog. Then a new version of
// the plugin is published and installed, and Codex started again: whether
// it asks for trust again is what decides Mew's default for Codex
// (hooks.json). Measured with Codex 0.171.0 (MEW_E2E_CODEX_VERSION).
func TestCodexPluginTrustAcrossUpdate(t *testing.T) {
	t.Parallel()
	if !codexAtLeast(driver.CodexVersion, 0, 171) {
		t.Skipf("measured on Codex 0.171.0, not on %s: `make e2e-codex-next` runs it", driver.CodexVersion)
	}
	s := needCodex(t)
	api, err := fakeresponses.Start(fakeresponses.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	market := filepath.Join(t.TempDir(), "marketplace")
	codexMarketplace(t, market)
	codex := func(r *driver.Run, args ...string) error {
		c := exec.Command(r.Opts.Codex, args...)
		c.Env, c.Dir = r.Env, r.Home
		out, err := c.CombinedOutput()
		r.TL.Addf(time.Now(), "note", "codex %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
		if err != nil {
			return &cmdError{name: "codex", args: args, out: out, err: err}
		}
		return nil
	}
	r, err := driver.Launch(driver.Options{
		Agent: driver.AgentCodex, Codex: s.codex, CodexPackages: s.packages,
		APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew,
		Setup: func(r *driver.Run) error {
			if err := codex(r, "plugin", "marketplace", "add", market); err != nil {
				return err
			}
			if err := codex(r, "plugin", "add", "mew@mew"); err != nil {
				return err
			}
			// mew-hook where `mew install` puts it; no hooks.json.
			hook, err := os.ReadFile(filepath.Join(filepath.Dir(s.mew), "mew-hook"))
			if err != nil {
				return err
			}
			os.MkdirAll(filepath.Join(r.MewHome, "bin"), 0o755)
			return os.WriteFile(filepath.Join(r.MewHome, "bin", "mew-hook"), hook, 0o755)
		},
	})
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	sc := &scen{t: t, r: r}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			t.Logf("timeline:\n%s", r.TL.String())
		}
	})
	if _, err := os.Stat(filepath.Join(r.CodexHome, "hooks.json")); err == nil {
		t.Fatal("a hooks.json is there: the plugin would not be what runs the hooks")
	}
	if err := r.AnswerHookReview(true, ready); err != nil {
		t.Fatalf("Codex did not ask to trust the plugin's hooks: %v", err)
	}
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	keys := codexTrust(t, r)
	t.Logf("trust entries after trusting the plugin's hooks: %d", len(keys))
	for k, h := range keys {
		t.Logf("  e.g. %s = %s", k, h)
		break
	}
	if len(keys) == 0 {
		t.Errorf("Codex wrote no trust entry for the plugin's hooks")
	}
	approval := func(what string) {
		t.Helper()
		prompt := fakeresponses.Prompt(fakeresponses.Shell)
		sent := sc.submit(prompt)
		// A TUI just started shows its input box before it takes a
		// submission (0.171.0 drops that Enter): Enter again while the
		// prompt still sits in the box.
		typed := regexp.MustCompile(`(?m)^› ` + regexp.QuoteMeta(prompt))
		shown, err := r.WaitScreen(sent, codexDialog, 3*time.Second)
		for try := 1; err != nil && try <= 5 && typed.MatchString(r.Screen()) && !r.CodexReviewShown(r.Started); try++ {
			t.Logf("%s: the prompt is still in the input box; Enter again", what)
			sc.press("Enter")
			shown, err = r.WaitScreen(sent, codexDialog, 3*time.Second)
		}
		if err != nil {
			shown, err = r.WaitScreen(sent, codexDialog, turn)
		}
		if err != nil {
			t.Fatal(err)
		}
		sc.expect(what+": approval shown → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
		sc.hooksReported(shown.At, session.AgentCodex, what+": the plugin's hooks")
		a, err := r.Answer(codexDialog, shown.At, "Enter")
		if err != nil {
			t.Fatal(err)
		}
		sc.expect(what+": turn ended → done", sc.turnOver(a.Pressed, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	}
	approval("plugin 1.0.0")

	// The control: Codex started again with nothing changed runs the
	// trusted hooks without asking (a review would take the typed prompt).
	if err := r.RestartCodex(); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	approval("restarted, nothing changed")
	if r.CodexReviewShown(r.Started) {
		t.Errorf("Codex asked for trust again after a restart with nothing changed")
	}
	trusted := codexTrust(t, r)

	// A Mew release: the plugin's version changes, its hooks do not.
	bumpPluginVersion(t, market, "1.0.0", "1.0.1")
	if err := codex(r, "plugin", "add", "mew@mew"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.CodexHome, "plugins", "cache", "mew", "mew", "1.0.1")); err != nil {
		t.Fatalf("codex plugin add did not install 1.0.1: %v", err)
	}
	if err := r.RestartCodex(); err != nil {
		t.Fatal(err)
	}
	// MEASURED with Codex 0.171.0: it asks again ("10 hooks are new or
	// changed") although the hooks file is byte for byte the same: which
	// is why `mew install` keeps hooks.json as Codex's default.
	if err := r.AnswerHookReview(true, ready); err != nil {
		t.Fatalf("Codex did not ask again after the plugin update (it keeps the trust: the plugin could become the default): %v", err)
	}
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	retrusted := codexTrust(t, r)
	for k, h := range trusted {
		t.Logf("%s\n  trusted for 1.0.0: %s\n  trusted for 1.0.1: %s", k, h, retrusted[k])
		break
	}
	approval("plugin 1.0.1, trusted again")
}
