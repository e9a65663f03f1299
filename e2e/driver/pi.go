package driver

// pi (npm @mariozechner/pi-coding-agent, pinned to PiVersion), as the
// census ran it (../shared/fixtures/census/pi/run.sh): the stand-in chat
// completions API as a custom provider in ~/.pi/agent/models.json
// (api "openai-completions"), settings.json naming it the default, offline.
// pi asks no permission itself: the package's own example extension
// examples/extensions/permission-gate.ts (copied from the installed
// package at setup, never committed) asks before `rm -rf`. Mew's extension
// is written by `mew install --agent pi`; the driver's observer extension
// sits next to it.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

const (
	AgentPi   = "pi"
	PiVersion = "0.73.1"
)

func init() {
	kits[AgentPi] = &kit{prepare: preparePi, env: piEnv, observe: observePi,
		// The footer's context meter under the editor: drawn once pi takes
		// input.
		ready: regexp.MustCompile(`\d+\.\d+%/\d+k \(auto\)`),
		// pi's editor echoes a prompt at the start of its row.
		box:  `(?m)^`,
		args: func(*Run) []string { return []string{"--provider", "fake", "--model", "fake-model"} }}
}

// PiDir is the npm prefix `make pi-cli` installs pi into.
func PiDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "pi-"+version), nil
}

// FindPi returns pi's launcher ($MEW_E2E_PI, or the one `make pi-cli`
// installed), checked with --version (which pi prints on stderr).
func FindPi(version string) (string, error) {
	path := os.Getenv("MEW_E2E_PI")
	if path == "" {
		dir, err := PiDir(version)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", ".bin", "pi")
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%w: no %s (run `make pi-cli`)", ErrNoCLI, path)
	}
	c := exec.Command(path, "--version")
	c.Env = append(os.Environ(), "HOME="+os.TempDir(), "PI_OFFLINE=1")
	out, err := c.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCLI, path, err)
	}
	if got := strings.TrimSpace(string(out)); !strings.HasSuffix(got, version) {
		return "", fmt.Errorf("%s is %q, want %s", path, got, version)
	}
	return path, nil
}

// piGate is the shipped example extension the scenarios ask through.
func piGate(launcher string) string {
	pkg := filepath.Join(filepath.Dir(filepath.Dir(launcher)), "@mariozechner", "pi-coding-agent")
	if real, err := filepath.EvalSymlinks(launcher); err == nil {
		// …/pi-coding-agent/dist/cli.js
		pkg = filepath.Dir(filepath.Dir(real))
	}
	return filepath.Join(pkg, "examples", "extensions", "permission-gate.ts")
}

func (r *Run) piAgentDir() string { return filepath.Join(r.Home, ".pi", "agent") }

func preparePi(r *Run) error {
	ext := filepath.Join(r.piAgentDir(), "extensions")
	if err := os.MkdirAll(ext, 0o700); err != nil {
		return err
	}
	models := map[string]any{"providers": map[string]any{"fake": map[string]any{
		"baseUrl": r.Opts.APIURL, "api": "openai-completions", "apiKey": "fake-e2e-key",
		"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
		"models": []any{map[string]any{"id": "fake-model", "name": "Fake Model"}},
	}}}
	b, _ := json.MarshalIndent(models, "", "  ")
	if err := os.WriteFile(filepath.Join(r.piAgentDir(), "models.json"), b, 0o600); err != nil {
		return err
	}
	settings := `{"defaultProvider": "fake", "defaultModel": "fake-model"}` + "\n"
	if err := os.WriteFile(filepath.Join(r.piAgentDir(), "settings.json"), []byte(settings), 0o600); err != nil {
		return err
	}
	gate, err := os.ReadFile(piGate(r.Opts.Program))
	if err != nil {
		return fmt.Errorf("pi's example permission gate: %w", err)
	}
	if err := os.WriteFile(filepath.Join(ext, "permission-gate.ts"), gate, 0o600); err != nil {
		return err
	}
	// What the dangerous command of the scenarios removes.
	if err := os.MkdirAll(filepath.Join(r.Project, "mew-probe-dir"), 0o700); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func piEnv(*Run) []string {
	return []string{"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0"}
}

// observePi adds the driver's own extension: pi's events as observer lines
// (hook_event_name; notification_type: agent_end's last stopReason, or
// session_shutdown's reason).
func observePi(r *Run, log string) error {
	q, err := json.Marshal(log)
	if err != nil {
		return err
	}
	src := `import { appendFileSync } from "node:fs"
function log(type, kind, ctx) {
  try {
    appendFileSync(` + string(q) + `, JSON.stringify({ hook_event_name: type, notification_type: kind, session_id: ctx?.sessionManager?.getSessionId?.() ?? "" }) + "\n")
  } catch {}
}
function last(messages) {
  for (let i = (messages ?? []).length - 1; i >= 0; i--) if (messages[i]?.role === "assistant") return String(messages[i].stopReason ?? "")
  return ""
}
export default function (pi) {
  for (const e of ["session_start", "agent_start", "tool_execution_start", "tool_execution_end"]) pi.on(e, (ev, ctx) => { log(e, "", ctx) })
  pi.on("agent_end", (ev, ctx) => { log("agent_end", last(ev?.messages), ctx) })
  pi.on("session_shutdown", (ev, ctx) => { log("session_shutdown", String(ev?.reason ?? ""), ctx) })
}
`
	return os.WriteFile(filepath.Join(r.piAgentDir(), "extensions", "driver-observer.ts"), []byte(src), 0o600)
}
