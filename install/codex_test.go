package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/reducer"
)

// codexEnv is a home with ~/.claude, ~/.codex and ~/.mew in it.
func codexEnv(t *testing.T) Env {
	t.Helper()
	env := testEnv(t)
	env.CodexHome = filepath.Join(env.Home, ".codex")
	return env
}

// A person's own hooks.json, shaped as Codex wants it (the "hooks" wrapper;
// Codex reads a bare event map as no hooks at all).
const personsHooks = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "notify-send done", "timeout": 30 }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "^Bash$",
        "hooks": [ { "type": "command", "command": "/usr/local/bin/audit" } ]
      }
    ]
  }
}
`

func TestCodexInstallUninstall(t *testing.T) {
	env := codexEnv(t)
	path := Codex.Path(env)
	os.MkdirAll(env.CodexHome, 0o700)
	os.WriteFile(path, []byte(personsHooks), 0o644)

	rep, err := Install(Options{Env: env, Agent: Codex})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settings != path || !rep.Wrote || rep.Backup != path+BackupSuffix {
		t.Fatalf("report %+v", rep)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	const cmd = `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook" --agent=codex`
	for _, event := range reducer.CodexEvents {
		groups := doc.Hooks[event]
		last := groups[len(groups)-1]
		if last.Matcher != nil || len(last.Hooks) != 1 || last.Hooks[0].Command != cmd || last.Hooks[0].Timeout != Timeout {
			t.Errorf("%s: Mew's group %+v; want no matcher, %s, timeout %d", event, last, cmd, Timeout)
		}
	}
	// The person's own hooks keep their place: their trust keys
	// (event:group:handler) stay valid.
	if g := doc.Hooks["Stop"]; len(g) != 2 || g[0].Hooks[0].Command != "notify-send done" {
		t.Fatalf("the person's Stop hook moved: %+v", g)
	}
	if g := doc.Hooks["PreToolUse"]; len(g) != 2 || *g[0].Matcher != "^Bash$" {
		t.Fatalf("the person's PreToolUse hook moved: %+v", g)
	}
	if _, ok := doc.Hooks["PreCompact"]; ok {
		t.Fatal("an event Mew does not need was registered (Codex waits for every hook)")
	}

	// Again: nothing changes.
	if rep, err := Install(Options{Env: env, Agent: Codex}); err != nil || rep.Wrote {
		t.Fatalf("second install: %+v %v", rep, err)
	}
	// Claude Code's file is another file with its own memory.
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	rep, err = Uninstall(Options{Env: env, Agent: Codex})
	if err != nil || !rep.Restored {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	if got := readFile(t, path); string(got) != personsHooks {
		t.Fatalf("not byte-exact:\n%s", got)
	}
	if !exists(env.SettingsPath()) {
		t.Fatal("uninstalling Codex touched Claude Code's settings")
	}
}

func TestCodexInstallCreatesAndRemoves(t *testing.T) {
	env := codexEnv(t)
	if _, err := Install(Options{Env: env, Agent: Codex}); err != nil {
		t.Fatal(err)
	}
	data := readFile(t, Codex.Path(env))
	if !strings.HasPrefix(string(data), "{\n  \"hooks\": {") {
		t.Fatalf("hooks.json must hold the hooks under \"hooks\":\n%s", data)
	}
	if _, err := Uninstall(Options{Env: env, Agent: Codex}); err != nil {
		t.Fatal(err)
	}
	if exists(Codex.Path(env)) || exists(env.CodexHome) {
		t.Fatal("uninstall left what install created")
	}
}

func TestCodexInstallKeepsSymlinkAndRefusesCorrupt(t *testing.T) {
	env := codexEnv(t)
	dotfiles := filepath.Join(env.Home, "dotfiles")
	os.MkdirAll(dotfiles, 0o700)
	os.MkdirAll(env.CodexHome, 0o700)
	target := filepath.Join(dotfiles, "codex-hooks.json")
	os.WriteFile(target, []byte(personsHooks), 0o644)
	os.Symlink(target, Codex.Path(env))
	rep, err := Install(Options{Env: env, Agent: Codex})
	if err != nil || rep.Link != Codex.Path(env) || rep.Settings != target {
		t.Fatalf("%+v %v", rep, err)
	}
	if fi, _ := os.Lstat(Codex.Path(env)); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	if !strings.Contains(string(readFile(t, target)), "--agent=codex") {
		t.Fatal("the link's target was not changed")
	}

	broken := `{"hooks": {"Stop": [`
	os.WriteFile(target, []byte(broken), 0o644)
	_, err = Install(Options{Env: env, Agent: Codex})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != target || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("corrupt file: %v", err)
	}
	if string(readFile(t, target)) != broken {
		t.Fatal("a corrupt file was changed")
	}
}

// trust writes the trust entries Codex's "Trust all" writes, for every
// hook of hooks.json (computed like Codex; see codextrust_test.go for the
// hashes the real CLI wrote).
func trust(t *testing.T, env Env, edit func(key, hash string) (string, string)) {
	t.Helper()
	var b strings.Builder
	b.WriteString("model = \"gpt-5.1-codex\"\n\n[hooks.state]\n")
	want, _ := Codex.Want(env)
	for _, e := range codexMewEntries(readFile(t, Codex.Path(env)), want.Command) {
		key, hash := codexTrustKey(Codex.Path(env), e.hook.Event, e.group, e.handler), codexHash(e.hook)
		if edit != nil {
			key, hash = edit(key, hash)
		}
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", key, hash)
	}
	os.WriteFile(filepath.Join(env.CodexHome, "config.toml"), []byte(b.String()), 0o600)
}

func TestDoctorCodexTrust(t *testing.T) {
	env := codexEnv(t)
	src := fakeHook(t, "v1")
	os.MkdirAll(env.CodexHome, 0o700)
	os.WriteFile(Codex.Path(env), []byte(personsHooks), 0o644)
	if _, err := Install(Options{Env: env, Agent: Codex, HookSource: src}); err != nil {
		t.Fatal(err)
	}
	doctor := func() []Finding {
		return Doctor(DoctorOptions{Env: env, HookSource: src, Agents: []Agent{Codex}})
	}
	fs := doctor()
	expectFinding(t, fs, OK, "registered for all 10 events in "+Codex.Path(env))
	expectFinding(t, fs, Warning, "Codex does not trust Mew's hooks yet")
	expectFinding(t, fs, Warning, "Hooks need review")
	if Failed(fs) || CodexTrusted(env) {
		t.Fatalf("untrusted hooks are a warning (Codex asks at its next start):\n%s", dump(fs))
	}
	if !CodexAsksReview(env) {
		t.Error("CodexAsksReview before trust")
	}

	trust(t, env, nil)
	expectFinding(t, doctor(), OK, "Codex trusts Mew's hooks")
	if !CodexTrusted(env) {
		t.Fatal("CodexTrusted after trust")
	}
	if CodexAsksReview(env) {
		t.Error("CodexAsksReview after trust")
	}

	// One hash off: that hook changed since it was trusted.
	trust(t, env, func(key, hash string) (string, string) {
		if strings.Contains(key, ":stop:") {
			return key, "sha256:0000"
		}
		return key, hash
	})
	expectFinding(t, doctor(), Warning, "Mew's hook for Stop changed since Codex trusted it")
	if !CodexAsksReview(env) {
		t.Error("CodexAsksReview after a hook changed")
	}

	// One key missing.
	trust(t, env, func(key, hash string) (string, string) {
		if strings.Contains(key, ":interrupt:") {
			return key + "x", hash
		}
		return key, hash
	})
	expectFinding(t, doctor(), Warning, "does not trust Mew's hook for Interrupt yet")

	// Turned off, and hooks off altogether.
	trust(t, env, nil)
	cfg := filepath.Join(env.CodexHome, "config.toml")
	data := string(readFile(t, cfg))
	i := strings.Index(data, ":session_end:")
	nl := i + strings.Index(data[i:], "\n")
	os.WriteFile(cfg, []byte(data[:nl+1]+"enabled = false\n"+data[nl+1:]+"\n[features]\nhooks = false\n"), 0o600)
	fs = doctor()
	expectFinding(t, fs, Warning, "Mew's hook for SessionEnd is turned off in Codex")
	expectFinding(t, fs, Problem, "turns Codex's hooks off")
	if CodexAsksReview(env) {
		t.Error("CodexAsksReview with Codex's hooks off")
	}

	os.WriteFile(cfg, []byte("model = \n"), 0o600)
	expectFinding(t, doctor(), Warning, "cannot tell whether Codex trusts Mew's hooks")
}

// CODEX_HOME given as a symlink: Codex may key trust by the resolved path.
func TestDoctorCodexTrustThroughSymlinkedHome(t *testing.T) {
	env := codexEnv(t)
	real := filepath.Join(env.Home, "real-codex")
	os.MkdirAll(real, 0o700)
	os.Symlink(real, env.CodexHome)
	if _, err := Install(Options{Env: env, Agent: Codex}); err != nil {
		t.Fatal(err)
	}
	realEnv := env
	realEnv.CodexHome = real
	trust(t, realEnv, nil)
	expectFinding(t, Doctor(DoctorOptions{Env: env, Agents: []Agent{Codex}}), OK, "Codex trusts Mew's hooks")
}

func TestDetect(t *testing.T) {
	env := codexEnv(t)
	none := func(string) (string, error) { return "", errors.New("not found") }
	names := func(as []Agent) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return out
	}
	if got := names(Detect(env, none)); !slices.Equal(got, []string{"claude"}) {
		t.Fatalf("nothing installed: %v, want Claude Code as before", got)
	}
	os.MkdirAll(env.CodexHome, 0o700)
	if got := names(Detect(env, none)); !slices.Equal(got, []string{"codex"}) {
		t.Fatalf("~/.codex only: %v", got)
	}
	onPath := func(p string) (string, error) {
		if p == "claude" {
			return "/usr/bin/claude", nil
		}
		return "", errors.New("not found")
	}
	if got := names(Detect(env, onPath)); !slices.Equal(got, []string{"claude", "codex"}) {
		t.Fatalf("claude on PATH and ~/.codex: %v", got)
	}
	if _, err := AgentNamed("vim"); err == nil || !strings.Contains(err.Error(), "claude, codex") {
		t.Fatalf("unknown agent: %v", err)
	}
}

// CodexAsksReview: only when Mew's hooks are in hooks.json, some untrusted,
// and Codex's hooks are on.
func TestCodexAsksReview(t *testing.T) {
	env := codexEnv(t)
	if CodexAsksReview(env) {
		t.Fatal("nothing installed, yet Codex asks")
	}
	if _, err := Install(Options{Env: env, Agent: Codex, HookSource: fakeHook(t, "v1")}); err != nil {
		t.Fatal(err)
	}
	if !CodexAsksReview(env) {
		t.Fatal("installed, untrusted: Codex asks")
	}
	os.WriteFile(filepath.Join(env.CodexHome, "config.toml"), []byte("[features]\nhooks = false\n"), 0o600)
	if CodexAsksReview(env) {
		t.Fatal("hooks off: Codex asks nothing")
	}
}
