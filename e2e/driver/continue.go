package driver

// Continue CLI (npm @continuedev/cli, `cn`, pinned to ContinueVersion), as
// the census ran it (../shared/fixtures/census/continue/run.sh): `cn
// --config <home>/config.yaml`, one model of provider openai whose apiBase
// is the stand-in chat completions API (no Continue hub). Continue fires
// no hooks and Mew installs nothing for it: the screen and the process are
// all there is, so the kit has no observer.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

const (
	AgentContinue   = "continue"
	ContinueVersion = "1.5.47"
)

func init() {
	kits[AgentContinue] = &kit{prepare: prepareContinue, env: func(*Run) []string { return nil },
		observe: func(*Run, string) error { return nil },
		ready:   regexp.MustCompile(`▋Ask anything, @ for context`),
		// The input row: "│ ● " then what is typed.
		box:  `│ ● `,
		args: func(r *Run) []string { return []string{"--config", r.continueConfig()} }}
}

// FindContinue returns Continue's launcher ($MEW_E2E_CONTINUE, or the one
// `make continue-cli` installed), checked with --version.
func FindContinue(version string) (string, error) {
	path := os.Getenv("MEW_E2E_CONTINUE")
	if path == "" {
		c, err := CacheDir()
		if err != nil {
			return "", err
		}
		path = filepath.Join(c, "continue-"+version, "node_modules", ".bin", "cn")
	}
	return checkVersion(path, version, "make continue-cli")
}

func (r *Run) continueConfig() string { return filepath.Join(r.Home, "config.yaml") }

func prepareContinue(r *Run) error {
	cfg := fmt.Sprintf(`name: e2e
version: 1.0.0
schema: v1
models:
  - name: fake
    provider: openai
    model: fake-model
    apiBase: %q
    apiKey: fake-e2e-key
    roles: [chat, edit, apply]
`, r.Opts.APIURL)
	if err := os.WriteFile(r.continueConfig(), []byte(cfg), 0o600); err != nil {
		return err
	}
	return gitInit(r.Project)
}
