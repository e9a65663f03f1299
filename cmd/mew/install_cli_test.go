package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/install"
)

// `mew install --dry-run` says the summary first; the "hooks" values in
// full (hundreds of lines) come after it (issue 40, item 7).
func TestInstallDryRunSummaryFirst(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MEW_HOME", filepath.Join(home, ".mew"))
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte("{\n  \"model\": \"opus\"\n}\n"), 0o600)
	hook := filepath.Join(home, "mew-hook")
	os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755)
	var out, errb strings.Builder
	if code := run([]string{"install", "--dry-run", "--agent", "claude", "--hook", hook}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	short, full := strings.Index(s, "In short, `mew install` would:"), strings.Index(s, "\"hooks\" would then be:")
	if short < 0 || full < 0 || short > full {
		t.Errorf("the summary (at %d) is not before the hooks in full (at %d):\n%s", short, full, s)
	}
	if strings.Index(s, "\n{") >= 0 && strings.Index(s, "\n{") < short {
		t.Errorf("JSON before the summary:\n%s", s)
	}
	if !strings.HasSuffix(s, "Nothing was written (--dry-run).\n") {
		t.Errorf("the last line: %q", s[max(len(s)-60, 0):])
	}
	if _, err := os.Stat(filepath.Join(home, ".mew")); err == nil {
		t.Error("a dry run wrote $MEW_HOME")
	}
}

// The hook binary is Mew's own, no agent's: its line comes before the
// agents' headings, never under "Claude Code:" (issue 40, item 7).
func TestHookBinaryLineBeforeTheAgents(t *testing.T) {
	env := install.Env{Home: t.TempDir()}
	env.MewHome = filepath.Join(env.Home, ".mew")
	r := &installRun{env: env, src: "/src/mew-hook", agents: []install.Agent{install.Claude, install.Gemini}}
	r.steps = []installStep{
		{agent: install.Claude, first: true, env: env, rep: install.Report{HookUpdated: true, Hook: "/h/.mew/bin/mew-hook", Settings: "/h/.claude/settings.json"}},
		{agent: install.Gemini, env: env, rep: install.Report{Settings: "/h/.gemini/settings.json"}},
	}
	var out strings.Builder
	r.stdout = &out
	r.reportAll(false)
	s := out.String()
	bin, heading := strings.Index(s, "Installed the hook binary at /h/.mew/bin/mew-hook."), strings.Index(s, "Claude Code:\n")
	if bin != 0 || heading < 0 || strings.Count(s, "Installed the hook binary") != 1 {
		t.Errorf("the hook binary's line is not first and once:\n%s", s)
	}
}
