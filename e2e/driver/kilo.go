package driver

// Kilo CLI (npm @kilocode/cli, pinned to KiloVersion), an OpenCode fork, as
// the census ran it (../shared/fixtures/census/kilo/run.sh): OpenCode's
// configuration under ~/.config/kilo (kilo.json: the stand-in chat
// completions API as a custom provider, bash asking permission), plugins
// from ~/.config/kilo/plugins (Mew's, written by `mew install --agent
// kilo`, and the driver's observer, OpenCode's).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

const (
	AgentKilo   = "kilo"
	KiloVersion = "7.7.7"
)

func init() {
	kits[AgentKilo] = &kit{prepare: prepareKilo, env: kiloEnv, observe: observeKilo,
		ready: regexp.MustCompile(`Ask anything`), box: `┃\s+`,
		args: func(r *Run) []string { return []string{r.Project} }}
}

// KiloDir is the npm prefix `make kilo-cli` installs Kilo into.
func KiloDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "kilo-"+version), nil
}

// FindKilo returns Kilo's launcher ($MEW_E2E_KILO, or the one `make
// kilo-cli` installed), checked with --version.
func FindKilo(version string) (string, error) {
	path := os.Getenv("MEW_E2E_KILO")
	if path == "" {
		dir, err := KiloDir(version)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", ".bin", "kilo")
	}
	return checkVersion(path, version, "make kilo-cli")
}

func (r *Run) kiloConfig() string { return filepath.Join(r.configHome(), "kilo") }

func prepareKilo(r *Run) error {
	if err := os.MkdirAll(filepath.Join(r.kiloConfig(), "plugins"), 0o700); err != nil {
		return err
	}
	doc := map[string]any{
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": r.Opts.APIURL, "apiKey": "sk-mew-e2e"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "Fake Model", "tool_call": true}},
		}},
		"model": "fake/fake-model", "small_model": "fake/fake-model",
		"permission": map[string]any{"bash": "ask"},
		"autoupdate": false, "share": "disabled",
		// A slow first snapshot makes Kilo ask whether to go on (a dialog of
		// its own, seen on a loaded machine): no snapshots, as no undo is needed.
		"snapshot": false,
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(filepath.Join(r.kiloConfig(), "kilo.json"), b, 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func kiloEnv(r *Run) []string {
	return []string{
		"XDG_CONFIG_HOME=" + r.configHome(),
		"XDG_DATA_HOME=" + filepath.Join(r.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(r.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(r.Home, ".local", "state"),
		"KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_LSP_DOWNLOAD=1", "KILO_TELEMETRY_LEVEL=off",
	}
}

// observeKilo adds the driver's OpenCode observer plugin to Kilo's folder.
func observeKilo(r *Run, log string) error {
	// OpenCode's observer, written where OpenCode would read it, then moved.
	if err := os.MkdirAll(filepath.Join(r.configHome(), "opencode", "plugins"), 0o700); err != nil {
		return err
	}
	if err := observeOpenCode(r, log); err != nil {
		return err
	}
	src := filepath.Join(r.configHome(), "opencode", "plugins", "driver-observer.js")
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(r.configHome(), "opencode")); err != nil {
		return fmt.Errorf("kilo: %w", err)
	}
	return os.WriteFile(filepath.Join(r.kiloConfig(), "plugins", "driver-observer.js"), b, 0o600)
}
