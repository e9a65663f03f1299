package install

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updatePlugin = flag.Bool("update-plugin", false, "rewrite plugins/mew/hooks/*.json from the reducer's events")

// The plugin's hooks files are what PluginHooks makes of the reducer's
// events: a new event reaches the plugin too (go test ./install -run
// TestPluginHooksFiles -update-plugin rewrites them).
func TestPluginHooksFiles(t *testing.T) {
	for _, a := range []Agent{Claude, Codex} {
		want, err := PluginHooks(a)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join("..", "plugins", "mew", filepath.FromSlash(PluginHooksFile(a)))
		if *updatePlugin {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what PluginHooks makes of the reducer's events (run with -update-plugin):\n%s", p, want)
		}
		var q bytes.Buffer
		enc := json.NewEncoder(&q)
		enc.SetEscapeHTML(false) // the command holds > and &
		enc.Encode(PluginHookCommand(a))
		quoted := bytes.TrimSpace(q.Bytes())
		if !bytes.Contains(got, quoted) {
			t.Errorf("%s does not run %s", p, PluginHookCommand(a))
		}
	}
}

// Uninstall takes away the skills folder `mew install --plugin` created,
// once it is empty; one that was there before stays (issue 40).
func TestUninstallRemovesTheSkillsFolderItMade(t *testing.T) {
	env := testEnv(t)
	os.MkdirAll(env.ClaudeDir, 0o755)
	skills := filepath.Join(env.ClaudeDir, "skills")
	if _, err := InstallClaudePlugin(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if _, err := UninstallClaudePlugin(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if exists(skills) {
		t.Error("the empty skills folder install made stayed")
	}
	// The person's own skills folder stays, empty or not.
	os.MkdirAll(skills, 0o755)
	if _, err := InstallClaudePlugin(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if _, err := UninstallClaudePlugin(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if !exists(skills) {
		t.Error("the person's skills folder was removed")
	}
}
