package driver

// GitHub Copilot CLI (npm @github/copilot, pinned to CopilotVersion), as the
// census ran it (../shared/fixtures/census/copilot/run.sh): bring-your-own-
// key against the stand-in chat completions API (COPILOT_PROVIDER_BASE_URL,
// COPILOT_MODEL; "GitHub authentication is not required"), COPILOT_OFFLINE
// (no other network), its state in an isolated COPILOT_HOME. Mew's hooks
// file goes into $COPILOT_HOME/hooks (`mew install --agent copilot`); the
// driver's observer is a hooks file of its own next to it.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

const (
	AgentCopilot   = "copilot"
	CopilotVersion = "1.0.102"
)

func init() {
	kits[AgentCopilot] = &kit{prepare: prepareCopilot, env: copilotEnv, observe: observeCopilot,
		ready: regexp.MustCompile(`· / commands · \? help`), box: `❯\s+`,
		// Two words: tmux runs the launcher directly (see kit.args).
		args: func(*Run) []string { return []string{"--model", copilotModel} }}
}

const copilotModel = "gpt-4.1"

// CopilotDir is the npm prefix `make copilot-cli` installs Copilot CLI into.
func CopilotDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "copilot-"+version), nil
}

// copilotPkgCache is the folder every run's COPILOT_PKG_CACHE_HOME names.
// The npm package's native binary unpacks its 235 MB JavaScript build into
// <it>/pkg/<platform>/<version> on its first start (8.9 s in the census,
// per fresh home): seeded once here, shared by every run (the build is
// read-only to Copilot once unpacked).
func copilotPkgCache(version string) string {
	dir, _ := CopilotDir(version)
	return filepath.Join(dir, "pkgcache")
}

var seedCopilot sync.Once

// FindCopilot returns Copilot CLI's launcher ($MEW_E2E_COPILOT, or the one
// `make copilot-cli` installed), checked with --version, with its build
// unpacked into the shared cache.
func FindCopilot(version string) (string, error) {
	dir, err := CopilotDir(version)
	if err != nil {
		return "", err
	}
	path := os.Getenv("MEW_E2E_COPILOT")
	if path == "" {
		path = filepath.Join(dir, "node_modules", ".bin", "copilot")
	}
	native := filepath.Join(dir, "node_modules", "@github", "copilot-linux-x64", "copilot")
	for _, p := range []string{path, native} {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: no %s (run `make copilot-cli`)", ErrNoCLI, p)
		}
	}
	var seedErr error
	seedCopilot.Do(func() {
		// Copilot's own extract-only mode (COPILOT_SEA_EXTRACT_ONLY, what
		// its loader runs on a first start): unpacks and exits.
		if _, err := os.Stat(filepath.Join(copilotPkgCache(version), "pkg", "linux-x64", version, "index.js")); err == nil {
			return
		}
		c := exec.Command(native, "--binary-version")
		c.Env = append(os.Environ(), "COPILOT_SEA_EXTRACT_ONLY=1", "COPILOT_PKG_CACHE_HOME="+copilotPkgCache(version))
		if out, err := c.CombinedOutput(); err != nil {
			seedErr = fmt.Errorf("unpacking Copilot's build: %v: %s", err, out)
		}
	})
	if seedErr != nil {
		return "", seedErr
	}
	home, err := os.MkdirTemp("", "mew-e2e-copilot-version-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(home)
	c := exec.Command(path, "--version")
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "COPILOT_HOME=" + filepath.Join(home, ".copilot"),
		"COPILOT_AUTO_UPDATE=false", "COPILOT_OFFLINE=true", "COPILOT_PKG_CACHE_HOME=" + copilotPkgCache(version)}
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCLI, path, err)
	}
	if got := string(out); !strings.Contains(got, "GitHub Copilot CLI "+version+".") {
		return "", fmt.Errorf("%s is %q, want %s", path, strings.TrimSpace(got), version)
	}
	return path, nil
}

func (r *Run) copilotHome() string { return filepath.Join(r.Home, ".copilot") }

// prepareCopilot trusts the project through Copilot's own list (config.json
// "trustedFolders", what "Yes, and remember this folder" writes: measured
// on 1.0.102), so no folder-trust dialog comes first.
func prepareCopilot(r *Run) error {
	if err := os.MkdirAll(filepath.Join(r.copilotHome(), "hooks"), 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(map[string]any{"trustedFolders": []string{r.Project}}, "", "  ")
	if err := os.WriteFile(filepath.Join(r.copilotHome(), "config.json"), b, 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func copilotEnv(r *Run) []string {
	return []string{
		"COPILOT_HOME=" + r.copilotHome(),
		"COPILOT_PKG_CACHE_HOME=" + copilotPkgCache(CopilotVersion),
		"COPILOT_AUTO_UPDATE=false", "COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_BASE_URL=" + r.Opts.APIURL, "COPILOT_PROVIDER_API_KEY=fake-e2e-key", "COPILOT_MODEL=" + copilotModel,
	}
}

// copilotObserved are the hook events the driver's observer logs.
var copilotObserved = []string{"sessionStart", "userPromptSubmitted", "preToolUse", "permissionRequest", "notification",
	"postToolUse", "agentStop", "errorOccurred", "sessionEnd"}

// observeCopilot writes the driver's hooks file. Copilot's payloads do not
// name their event: each command wraps its payload with the name. Its name
// sorts before Mew's mew.json, and Copilot runs hooks one after another,
// so the observer's moment is never later than Mew's hook.
func observeCopilot(r *Run, log string) error {
	q, err := shellQuote(log)
	if err != nil {
		return err
	}
	hooks := map[string]any{}
	for _, ev := range copilotObserved {
		hooks[ev] = []any{map[string]any{"type": "command", "timeoutSec": 5,
			"bash": `{ printf '{"hook_event_name":"` + ev + `","payload":'; cat; printf '}\n'; } >> ` + q + ` 2>/dev/null; true`}}
	}
	b, _ := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	return os.WriteFile(filepath.Join(r.copilotHome(), "hooks", "driver-observer.json"), b, 0o600)
}

// CopilotSessionLog is the session log (events.jsonl) of the run's one
// Copilot session, "" until Copilot made it.
func (r *Run) CopilotSessionLog() string {
	m, _ := filepath.Glob(filepath.Join(r.copilotHome(), "session-state", "*", "events.jsonl"))
	if len(m) != 1 {
		return ""
	}
	return m[0]
}
