package driver

// Grok CLI (npm @vibe-kit/grok-cli, `grok`, pinned to GrokVersion; it
// calls itself GrokReports), against the stand-in chat completions API:
// its base URL, key and model come from its environment (GROK_BASE_URL,
// GROK_API_KEY, GROK_MODEL). Grok CLI fires no hooks and Mew installs
// nothing for it: the screen and the process are all there is, so the kit
// has no observer.

import (
	"os"
	"path/filepath"
	"regexp"
)

const (
	AgentGrok   = "grok"
	GrokVersion = "0.0.34"
	// GrokReports is what `grok --version` says of GrokVersion.
	GrokReports = "1.0.1"
)

func init() {
	kits[AgentGrok] = &kit{prepare: func(r *Run) error { return gitInit(r.Project) },
		env: func(r *Run) []string {
			return []string{"GROK_BASE_URL=" + r.Opts.APIURL, "GROK_API_KEY=fake-e2e-key", "GROK_MODEL=fake-model"}
		},
		observe: func(*Run, string) error { return nil },
		ready:   regexp.MustCompile(`❯ Ask me anything\.\.\.`),
		box:     `│ ❯ `,
		args:    func(r *Run) []string { return []string{"--directory", r.Project} }}
}

// FindGrok returns Grok CLI's launcher ($MEW_E2E_GROK, or the one `make
// grok-cli` installed), checked with --version.
func FindGrok(version string) (string, error) {
	path := os.Getenv("MEW_E2E_GROK")
	if path == "" {
		c, err := CacheDir()
		if err != nil {
			return "", err
		}
		path = filepath.Join(c, "grok-cli-"+version, "node_modules", ".bin", "grok")
	}
	return checkVersion(path, GrokReports, "make grok-cli")
}
