package driver

// OpenCode and Gemini CLI: what the driver needs to run them besides what
// it does for every CLI (an isolated home, a private tmux server, `mew
// install`, the samplers). Each is a kit: its home prepared, its
// environment, an observer that logs the CLI's own events for the test (a
// plugin of the driver's own for OpenCode, hooks for Gemini CLI; both in
// the observer log pollHooks reads), and the screens that say it is ready
// and where a typed prompt shows.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// The CLIs the suite is pinned to; the Makefile's `opencode-cli` and
// `gemini-cli` targets install the same ones.
const (
	AgentOpenCode   = "opencode"
	AgentGemini     = "gemini"
	OpenCodeVersion = "1.18.33"
	GeminiVersion   = "0.61.0"
)

// ErrNoCLI means a pinned CLI is not installed; tests skip on it.
var ErrNoCLI = errors.New("the CLI is not installed")

// kit is one agent's part of a run.
type kit struct {
	prepare func(r *Run) error
	env     func(r *Run) []string
	// observe installs the driver's own observer (after `mew install`),
	// writing one JSON line per event to log.
	observe func(r *Run, log string) error
	ready   *regexp.Regexp // the CLI waits for a prompt
	box     string         // what precedes a typed prompt on its input line
	// args are the CLI's arguments when a test gives none: more than one
	// word, so tmux runs the CLI directly, as a shell runs a job (one word
	// runs under `sh -c`, which stays the pane's foreground process and
	// hides the CLI from the screen source).
	args func(r *Run) []string
	// settle, when set, runs once the ready screen showed (Cline closes
	// its start-up modal there).
	settle func(r *Run, timeout time.Duration) error
}

var kits = map[string]*kit{
	AgentOpenCode: {prepare: prepareOpenCode, env: openCodeEnv, observe: observeOpenCode,
		ready: regexp.MustCompile(`Ask anything`), box: `┃\s+`,
		args: func(r *Run) []string { return []string{r.Project} }},
	AgentGemini: {prepare: prepareGemini, env: geminiEnv, observe: observeGemini,
		ready: regexp.MustCompile(`Type your message`), box: `>\s+`,
		args: func(*Run) []string { return []string{"--model", "gemini-2.5-flash"} }},
}

// kit is the run's agent kit, nil for Claude Code and Codex.
func (r *Run) kit() *kit { return kits[r.Opts.Agent] }

// CLIDir is the npm prefix `make opencode-cli` / `make gemini-cli`
// installs a CLI into.
func CLIDir(agent, version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	name := map[string]string{AgentOpenCode: "opencode-", AgentGemini: "gemini-cli-"}[agent]
	return filepath.Join(c, name+version), nil
}

// FindOpenCode returns the native OpenCode binary ($MEW_E2E_OPENCODE, or the
// one `make opencode-cli` installed), checked with --version.
func FindOpenCode(version string) (string, error) {
	path := os.Getenv("MEW_E2E_OPENCODE")
	if path == "" {
		dir, err := CLIDir(AgentOpenCode, version)
		if err != nil {
			return "", err
		}
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		path = filepath.Join(dir, "node_modules", "opencode-"+runtime.GOOS+"-"+arch, "bin", "opencode")
	}
	return checkVersion(path, version, "make opencode-cli")
}

// FindGemini returns Gemini CLI's entry script ($MEW_E2E_GEMINI, or the one
// `make gemini-cli` installed), checked with --version.
func FindGemini(version string) (string, error) {
	path := os.Getenv("MEW_E2E_GEMINI")
	if path == "" {
		dir, err := CLIDir(AgentGemini, version)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", ".bin", "gemini")
	}
	return checkVersion(path, version, "make gemini-cli")
}

func checkVersion(path, version, target string) (string, error) {
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%w: no %s (run `%s`)", ErrNoCLI, path, target)
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCLI, path, err)
	}
	if got := strings.TrimSpace(string(out)); !strings.HasSuffix(got, version) {
		return "", fmt.Errorf("%s is %q, want %s", path, got, version)
	}
	return path, nil
}

// gitInit makes the project a git repository, as the recordings had.
func gitInit(dir string) error {
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# proj\n"), 0o600)
	c := exec.Command("git", "init", "-q", dir)
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	return nil
}

func (r *Run) configHome() string { return filepath.Join(r.Home, ".config") }

// prepareOpenCode writes opencode.json: the stand-in chat completions API as
// a custom OpenAI-compatible provider, bash asking permission, no updates
// or sharing.
func prepareOpenCode(r *Run) error {
	cfg := filepath.Join(r.configHome(), "opencode")
	if err := os.MkdirAll(filepath.Join(cfg, "plugins"), 0o700); err != nil {
		return err
	}
	doc := map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "Fake",
			"options": map[string]any{"baseURL": r.Opts.APIURL, "apiKey": "sk-mew-e2e"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "Fake Model"}},
		}},
		"model": "fake/fake-model", "small_model": "fake/fake-model",
		"permission": map[string]any{"bash": "ask"},
		"autoupdate": false, "share": "disabled",
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(filepath.Join(cfg, "opencode.json"), b, 0o600); err != nil {
		return err
	}
	// No package seed: `mew install` leaves OpenCode nothing to install
	// from npm at start (install/opencode_offline.go), so it starts fast
	// because of Mew, as it would for a person.
	return gitInit(r.Project)
}

func openCodeEnv(r *Run) []string {
	return []string{
		"XDG_CONFIG_HOME=" + r.configHome(),
		"XDG_DATA_HOME=" + filepath.Join(r.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(r.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(r.Home, ".local", "state"),
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
	}
}

// observeOpenCode adds the driver's own plugin: every session, permission
// and question event, as a line the observer log reader takes
// (hook_event_name, notification_type: the status, reply or error kind).
func observeOpenCode(r *Run, log string) error {
	q, err := json.Marshal(log)
	if err != nil {
		return err
	}
	src := `import { appendFileSync } from "node:fs"
const wanted = /^(session\.(created|status|idle|error)|permission\.|question\.)/
export const DriverObserver = async () => ({
  event: async ({ event }) => {
    if (!wanted.test(event.type)) return
    const p = event.properties ?? {}
    const kind = p.status?.type ?? p.reply ?? p.error?.name ?? ""
    appendFileSync(` + string(q) + `, JSON.stringify({ hook_event_name: event.type, notification_type: kind, session_id: p.sessionID ?? p.info?.id ?? "" }) + "\n")
  },
})
`
	return os.WriteFile(filepath.Join(r.configHome(), "opencode", "plugins", "driver-observer.js"), []byte(src), 0o600)
}

// prepareGemini writes ~/.gemini/settings.json (the API key auth chosen, a
// fixed model: "auto" asks a router model with JSON side requests) and
// trusts the project folder (else Gemini asks first and runs no hooks).
func prepareGemini(r *Run) error {
	dir := filepath.Join(r.Home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	settings := `{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "model": { "name": "gemini-2.5-flash" },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false }
}
`
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o600); err != nil {
		return err
	}
	trusted, _ := json.Marshal(map[string]string{r.Project: "TRUST_FOLDER"})
	if err := os.WriteFile(filepath.Join(dir, "trustedFolders.json"), trusted, 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func geminiEnv(r *Run) []string {
	return []string{"GEMINI_API_KEY=fake-e2e-key", "GOOGLE_GEMINI_BASE_URL=" + r.Opts.APIURL, "NO_BROWSER=1"}
}

// observeGemini adds the driver's own hooks next to Mew's in
// ~/.gemini/settings.json (timeouts in milliseconds there).
func observeGemini(r *Run, log string) error {
	events := []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "Notification", "AfterAgent", "SessionEnd"}
	return addObserverHooks(filepath.Join(r.Home, ".gemini", "settings.json"), log, events, 5000)
}

// hookSessionID is the session id the observer log names ("" before the
// CLI's first event).
func (r *Run) hookSessionID() string {
	for _, h := range r.Hooks() {
		var p struct {
			SessionID string `json:"session_id"`
			// Copilot CLI's observer wraps its camelCase payload.
			Payload struct {
				SessionID string `json:"sessionId"`
			} `json:"payload"`
		}
		if json.Unmarshal(h.Doc, &p) == nil && p.SessionID != "" {
			return p.SessionID
		}
		if p.Payload.SessionID != "" {
			return p.Payload.SessionID
		}
	}
	return ""
}
