package driver

// Amp: the real Amp CLI (AmpVersion) against e2e/fakeamp, a stand-in of
// Amp's own server (AMP_URL). Its kit: the permissions plugin on (so the
// approval dialog exists), the first-run intro pages skipped, and an
// observer plugin of the driver's own logging Amp's plugin events.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

const (
	AgentAmp   = "amp"
	AmpVersion = "0.0.1790142911-g7618fb"
)

func init() {
	kits[AgentAmp] = &kit{prepare: prepareAmp, env: ampEnv, observe: observeAmp,
		// The input box's bottom border: drawn once Amp takes input.
		ready: regexp.MustCompile(`(?m)^╰.*─╯\s*$`), box: `│\s*`,
		// More than one word: tmux runs Amp itself, not under sh -c.
		args: func(*Run) []string { return []string{"--no-notifications", "--no-ide"} }}
}

// FindAmp returns Amp's native binary ($MEW_E2E_AMP, or the one `make
// amp-cli` installed), checked with --version.
func FindAmp(version string) (string, error) {
	path := os.Getenv("MEW_E2E_AMP")
	if path == "" {
		c, err := CacheDir()
		if err != nil {
			return "", err
		}
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		path = filepath.Join(c, "amp-0.0.1790142911", "node_modules", "@ampcode", "cli-"+runtime.GOOS+"-"+arch, "amp")
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%w: no %s (run `make amp-cli`)", ErrNoCLI, path)
	}
	// "0.0.1790142911-g7618fb (released 2026-09-23T05:55:11.000Z, 2mo ago)"
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoCLI, path, err)
	}
	if got := strings.Fields(string(out)); len(got) == 0 || got[0] != version {
		return "", fmt.Errorf("%s is %q, want %s", path, strings.TrimSpace(string(out)), version)
	}
	return path, nil
}

func prepareAmp(r *Run) error {
	cfg := filepath.Join(r.configHome(), "amp")
	data := filepath.Join(r.Home, ".local", "share", "amp")
	for _, d := range []string{filepath.Join(cfg, "plugins"), data} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	// Without it every tool runs unasked: no dialog.
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"amp.dangerouslyAllowAll": false}`+"\n"), 0o600); err != nil {
		return err
	}
	intro := `{"agentMode":"medium","neoWelcomeDismissed":true,"launchCount":3}` + "\n"
	if err := os.WriteFile(filepath.Join(data, "session.json"), []byte(intro), 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}

func ampEnv(r *Run) []string {
	return []string{
		"XDG_CONFIG_HOME=" + r.configHome(),
		"XDG_DATA_HOME=" + filepath.Join(r.Home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(r.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(r.Home, ".local", "state"),
		"AMP_URL=" + r.Opts.APIURL, "AMP_API_KEY=fake-key",
	}
}

// observeAmp adds the driver's own plugin: Amp's plugin events as observer
// lines (hook_event_name; notification_type: agent.end's status).
func observeAmp(r *Run, log string) error {
	q, err := json.Marshal(log)
	if err != nil {
		return err
	}
	src := `// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now
import { appendFileSync } from "node:fs"
function log(type, event) {
  try {
    appendFileSync(` + string(q) + `, JSON.stringify({ hook_event_name: type, notification_type: String(event?.status ?? ""), session_id: event?.thread?.id ?? "" }) + "\n")
  } catch {}
}
export default function (amp) {
  amp.on("session.start", (e) => { log("session.start", e) })
  amp.on("agent.start", (e) => { log("agent.start", e); return undefined })
  amp.on("tool.call", (e) => { log("tool.call", e); return { action: "allow" } })
  amp.on("tool.result", (e) => { log("tool.result", e); return undefined })
  amp.on("agent.end", (e) => { log("agent.end", e); return undefined })
}
`
	return os.WriteFile(filepath.Join(r.configHome(), "amp", "plugins", "driver-observer.ts"), []byte(src), 0o600)
}
