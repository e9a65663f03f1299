// Package driver runs the real Claude Code CLI in an isolated home inside a
// tmux pane, types into it, and records what it shows (its screen and its
// own session registry) next to what Mew reports (`mew status --json`), on
// one clock. The end-to-end suite (package e2e) and tools/record-fixture use
// it.
package driver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Version is the Claude Code release the suite is pinned to; the Makefile's
// `claude-code` target installs the same one.
const Version = "2.1.328"

// ClaudeVersion is the Claude Code release the suite runs: the pinned one,
// or $MEW_E2E_CLAUDE_VERSION (`make e2e-claude-next` runs the newest the
// npm registry serves, as `make e2e-codex-next` runs a newer Codex).
var ClaudeVersion = claudeVersion(os.Getenv("MEW_E2E_CLAUDE_VERSION"))

func claudeVersion(env string) string {
	if env == "" {
		return Version
	}
	return env
}

// CacheDir is where the Makefile installs Claude Code: $MEW_E2E_CACHE, else
// $XDG_CACHE_HOME/mew-e2e, else ~/.cache/mew-e2e (the Makefile computes the
// same).
func CacheDir() (string, error) {
	if d := os.Getenv("MEW_E2E_CACHE"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "mew-e2e"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "mew-e2e"), nil
}

// InstallDir is the npm prefix of one Claude Code version.
func InstallDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "claude-code-"+version), nil
}

// platformPackage names the npm package that carries the native binary for
// this machine (an optional dependency of @anthropic-ai/claude-code).
func platformPackage(goos, goarch string) (string, error) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch]
	if arch == "" || (goos != "linux" && goos != "darwin") {
		return "", fmt.Errorf("Claude Code ships no native binary for %s/%s", goos, goarch)
	}
	return "@anthropic-ai/claude-code-" + goos + "-" + arch, nil
}

// ErrNoClaude means the pinned client is not installed; tests skip on it.
var ErrNoClaude = errors.New("Claude Code is not installed")

// FindClaude returns the native Claude Code binary of version: the file
// named by $MEW_E2E_CLAUDE, or the one `make claude-code` installed. It runs
// it once with --version to make sure it is that release.
func FindClaude(version string) (string, error) {
	path := os.Getenv("MEW_E2E_CLAUDE")
	if path == "" {
		dir, err := InstallDir(version)
		if err != nil {
			return "", err
		}
		pkg, err := platformPackage(runtime.GOOS, runtime.GOARCH)
		if err != nil {
			return "", err
		}
		// The wrapper's bin/claude.exe is the same binary once its
		// postinstall ran; the platform package has it either way.
		path = filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "claude")
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: no %s (run `make claude-code`)", ErrNoClaude, path)
		}
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%w: %s --version: %v", ErrNoClaude, path, err)
	}
	got := strings.TrimSpace(string(out))
	if !strings.HasPrefix(got, version+" ") && got != version {
		return "", fmt.Errorf("%s is Claude Code %q, want %s", path, got, version)
	}
	return path, nil
}
