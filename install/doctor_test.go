package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installed is an Env with Mew installed from src and Claude Code's
// registry directory present.
func installed(t *testing.T) (Env, string) {
	t.Helper()
	env := testEnv(t)
	src := fakeHook(t, "v1")
	if _, err := Install(Options{Env: env, HookSource: src}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(env.ClaudeDir, "sessions"), 0o700)
	return env, src
}

func fakeClaude(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// find returns the findings whose text contains s.
func find(fs []Finding, s string) []Finding {
	var out []Finding
	for _, f := range fs {
		if strings.Contains(f.Text, s) {
			out = append(out, f)
		}
	}
	return out
}

func expectFinding(t *testing.T, fs []Finding, level Level, text string) {
	t.Helper()
	for _, f := range find(fs, text) {
		if f.Level == level {
			return
		}
	}
	t.Errorf("no %v finding containing %q in:\n%s", level, text, dump(fs))
}

func dump(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Level.String() + "  " + f.Text + "\n")
	}
	return b.String()
}

func TestDoctorAllGood(t *testing.T) {
	env, src := installed(t)
	claude := fakeClaude(t, `echo "2.1.328 (Claude Code)"`)
	fs := Doctor(DoctorOptions{Env: env, HookSource: src, Claude: claude, Cwd: t.TempDir()})
	if Failed(fs) {
		t.Fatalf("problems on a good set-up:\n%s", dump(fs))
	}
	for _, f := range fs {
		if f.Level != OK {
			t.Errorf("not ok: %v %s", f.Level, f.Text)
		}
	}
	expectFinding(t, fs, OK, "registered for all 15 events")
	expectFinding(t, fs, OK, "is current")
	expectFinding(t, fs, OK, "Claude Code 2.1.328 (Claude Code)")
	expectFinding(t, fs, OK, "session registry")
	expectFinding(t, fs, OK, "will be created")

	os.MkdirAll(filepath.Join(env.MewHome, "sessions"), 0o700)
	fs = Doctor(DoctorOptions{Env: env, HookSource: src, Claude: claude})
	expectFinding(t, fs, OK, "sessions is writable")
	if left, _ := os.ReadDir(filepath.Join(env.MewHome, "sessions")); len(left) != 0 {
		t.Fatalf("doctor left files in the state directory: %v", left)
	}
}

func TestDoctorNotInstalled(t *testing.T) {
	env := testEnv(t)
	fs := Doctor(DoctorOptions{Env: env})
	if !Failed(fs) {
		t.Fatalf("no problem without an install:\n%s", dump(fs))
	}
	expectFinding(t, fs, Problem, "does not exist")
	expectFinding(t, fs, Problem, "hook binary")
	expectFinding(t, fs, Warning, "session registry")
	expectFinding(t, fs, Warning, "claude is not on PATH")

	writeSettings(t, env, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say hi"}]}]}}`, 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env}), Problem, "not registered")
}

func TestDoctorPartialAndWrongHooks(t *testing.T) {
	env, src := installed(t)
	doc := readFile(t, env.SettingsPath())
	// The person took the hook out of two events.
	ed, _ := Edit(doc, Want{})
	want := mustWant(t, env)
	want.Events = Events[2:]
	ed, _ = Edit(ed.Doc, want)
	writeSettings(t, env, string(ed.Doc), 0o644)
	fs := Doctor(DoctorOptions{Env: env, HookSource: src})
	expectFinding(t, fs, Problem, "missing for "+Events[0]+", "+Events[1])

	// Installed for another MEW_HOME: the hook writes where this mew
	// doesn't look.
	other := env
	other.MewHome = filepath.Join(env.Home, "other-mew")
	otherWant := mustWant(t, other)
	ed, _ = Edit(doc, Want{})
	ed, _ = Edit(ed.Doc, otherWant)
	writeSettings(t, env, string(ed.Doc), 0o644)
	fs = Doctor(DoctorOptions{Env: env, HookSource: src})
	expectFinding(t, fs, Problem, otherWant.Command)

	// An older mew's command line for the same hook: it works, so only a
	// warning, which names the fix.
	older := strings.ReplaceAll(string(doc), `"GOMAXPROCS=1 \"$HOME/.mew/bin/mew-hook\""`, `"\"$HOME/.mew/bin/mew-hook\""`)
	if older == string(doc) {
		t.Fatal("the test's settings have no current command to age")
	}
	writeSettings(t, env, older, 0o644)
	fs = Doctor(DoctorOptions{Env: env, HookSource: src})
	expectFinding(t, fs, Warning, "older mew's command line")
	if Failed(fs) {
		t.Fatalf("an older command line is not a problem:\n%s", dump(fs))
	}

	// Registered twice.
	twice := strings.Replace(string(doc), `"Stop": [`, `"Stop": [{"hooks": [{"type": "command", "command": "GOMAXPROCS=1 \"$HOME/.mew/bin/mew-hook\"", "timeout": 10}]},`, 1)
	writeSettings(t, env, twice, 0o644)
	fs = Doctor(DoctorOptions{Env: env, HookSource: src})
	expectFinding(t, fs, Warning, "more than once for Stop")
	if Failed(fs) {
		t.Fatalf("a duplicate entry is not a problem:\n%s", dump(fs))
	}

	// Under a matcher that does not match everything, the hook misses
	// events: as good as missing.
	narrow := strings.Replace(string(doc), `"matcher": "*"`, `"matcher": "Bash"`, 1)
	writeSettings(t, env, narrow, 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "missing for SessionStart in")

	writeSettings(t, env, `{"hooks": `, 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "not valid JSON")
}

func TestDoctorBinary(t *testing.T) {
	env, src := installed(t)
	newer := fakeHook(t, "v2")
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: newer}), Warning, "not the one that ships with this mew")
	expectFinding(t, Doctor(DoctorOptions{Env: env}), Warning, "no mew-hook beside it")

	os.Chmod(HookPath(env.MewHome), 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "not an executable file")
	os.Remove(HookPath(env.MewHome))
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "is missing")
}

func TestDoctorStateDir(t *testing.T) {
	env, src := installed(t)
	os.WriteFile(filepath.Join(env.MewHome, "sessions"), nil, 0o600)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "is not a directory")
	if os.Geteuid() != 0 {
		os.Remove(filepath.Join(env.MewHome, "sessions"))
		os.MkdirAll(filepath.Join(env.MewHome, "sessions"), 0o500)
		defer os.Chmod(filepath.Join(env.MewHome, "sessions"), 0o700)
		expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, "not writable")
	}
}

func TestDoctorDisabledHooks(t *testing.T) {
	env, src := installed(t)
	doc := string(readFile(t, env.SettingsPath()))
	user := strings.Replace(doc, "{", "{\n  \"disableAllHooks\": true,", 1)
	writeSettings(t, env, user, 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src}), Problem, `"disableAllHooks": true`)
	writeSettings(t, env, doc, 0o644)

	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte(`{"disableAllHooks": true}`), 0o644)
	fs := Doctor(DoctorOptions{Env: env, HookSource: src, Cwd: project})
	expectFinding(t, fs, Warning, "settings.local.json turn hooks off")
	if Failed(fs) {
		t.Fatalf("a project setting is a warning, not a problem:\n%s", dump(fs))
	}
	os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(`{"disableAllHooks": fals`), 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src, Cwd: project}), Warning, "settings.json: not valid JSON")

	managed := filepath.Join(t.TempDir(), "managed-settings.json")
	os.WriteFile(managed, []byte(`{"allowManagedHooksOnly": true}`), 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src, Managed: []string{managed, "/nonexistent"}}), Problem, "allows only managed hooks")
	os.WriteFile(managed, []byte(`{"disableAllHooks": true}`), 0o644)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src, Managed: []string{managed}}), Problem, "turns all hooks off")
}

func TestDoctorClaudeVersion(t *testing.T) {
	env, src := installed(t)
	start := time.Now()
	slow := fakeClaude(t, "exec sleep 30")
	fs := Doctor(DoctorOptions{Env: env, HookSource: src, Claude: slow, VersionTimeout: 200 * time.Millisecond})
	expectFinding(t, fs, Warning, "did not answer within 200ms")
	if time.Since(start) > 10*time.Second {
		t.Fatalf("a hanging claude held the doctor for %v", time.Since(start))
	}
	if Failed(fs) {
		t.Fatal("a slow claude is not a problem")
	}
	failing := fakeClaude(t, "exit 3")
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src, Claude: failing}), Warning, "failed")
	// The argument reaches claude as one argv word, through no shell.
	argv := fakeClaude(t, `printf '%s|' "$@"; echo`)
	expectFinding(t, Doctor(DoctorOptions{Env: env, HookSource: src, Claude: argv}), OK, "Claude Code --version|")
}

func TestManagedSettingsPaths(t *testing.T) {
	if got := ManagedSettings("darwin"); len(got) != 1 || !strings.HasPrefix(got[0], "/Library/Application Support/ClaudeCode/") {
		t.Errorf("darwin: %v", got)
	}
	if got := ManagedSettings("linux"); len(got) != 1 || got[0] != "/etc/claude-code/managed-settings.json" {
		t.Errorf("linux: %v", got)
	}
}
