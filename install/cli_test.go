package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
)

// cli runs the real mew binary in a home directory of its own.
type cli struct {
	t   *testing.T
	mew string
	env []string
	cwd string
}

func (c cli) run(args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(c.mew, args...)
	cmd.Env, cmd.Dir = c.env, c.cwd
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestCommandLine drives the built `mew` (with `mew-hook` beside it, as
// shipped) through install, the hook firing as Claude Code runs it,
// doctor and uninstall, with HOME, CLAUDE_CONFIG_DIR and MEW_HOME of a
// temporary home.
func TestCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(hook) != filepath.Dir(mew) {
		t.Fatalf("mew-hook is not built beside mew: %s %s", hook, mew)
	}
	home := t.TempDir()
	claudeDir := filepath.Join(home, "claude-config")
	mewHome := filepath.Join(home, ".mew")
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\necho '2.1.328 (Claude Code)'\n"), 0o755)
	c := cli{t: t, mew: mew, cwd: t.TempDir(), env: []string{
		"HOME=" + home, "CLAUDE_CONFIG_DIR=" + claudeDir, "MEW_HOME=" + mewHome,
		"PATH=" + bin + ":/usr/bin:/bin",
	}}
	settings := filepath.Join(claudeDir, "settings.json")
	orig := "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"say done\"\n                    }\n                ]\n            }\n        ]\n    }\n}"
	os.MkdirAll(claudeDir, 0o755)
	os.WriteFile(settings, []byte(orig), 0o644)

	out, errOut, code := c.run("install", "--dry-run")
	if code != 0 || !strings.Contains(out, "Would change "+settings) || !strings.Contains(out, `+ PreToolUse: GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"`) || !strings.Contains(out, "Nothing was written") {
		t.Fatalf("install --dry-run: %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(settings); string(got) != orig || exists(mewHome) {
		t.Fatal("--dry-run wrote")
	}

	out, errOut, code = c.run("install", "--yes")
	if code != 0 || !strings.Contains(out, "Registered Mew's hook for 15 events") {
		t.Fatalf("install: %d\n%s%s", code, out, errOut)
	}
	installed, _ := os.ReadFile(settings)
	if strings.Contains(string(installed), home) {
		t.Fatalf("settings contain the home path:\n%s", installed)
	}
	if a, b := readFile(t, hook), readFile(t, HookPath(mewHome)); !bytes.Equal(a, b) {
		t.Fatal("the installed hook is not the mew-hook beside mew")
	}

	// The hooks fire as Claude Code runs them: each registered command
	// through a shell, the event on stdin.
	cmdline := hookCommandFor(t, installed, "PermissionRequest")
	payloads, sid := fixtureHooks(t, "permission")
	for _, payload := range payloads {
		var ev struct {
			Name string `json:"hook_event_name"`
		}
		json.Unmarshal(payload, &ev)
		cmd := exec.Command("sh", "-c", hookCommandFor(t, installed, ev.Name))
		cmd.Env, cmd.Stdin = c.env, bytes.NewReader(payload)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Fatalf("%s hook: %v %q", ev.Name, err, out)
		}
		if ev.Name == "PermissionRequest" {
			break
		}
	}
	var rec session.Record
	data, err := os.ReadFile(filepath.Join(mewHome, "sessions", sid+".json"))
	if err != nil {
		t.Fatalf("the hook %s wrote no session file: %v", cmdline, err)
	}
	if err := session.DecodeRecord(data, &rec); err != nil || rec.Hook == nil || rec.Hook.State != session.Waiting || rec.Hook.Reason != "permission" {
		t.Fatalf("session after a permission request: %v %+v", err, rec.Hook)
	}

	out, _, code = c.run("doctor")
	if code != 0 || !strings.Contains(out, "registered for all 15 events") || !strings.Contains(out, "Claude Code 2.1.328") || !strings.Contains(out, "is current") {
		t.Fatalf("doctor after install: %d\n%s", code, out)
	}

	out, _, code = c.run("install", "--yes")
	if got, _ := os.ReadFile(settings); code != 0 || !bytes.Equal(got, installed) || !strings.Contains(out, "already registered") {
		t.Fatalf("second install: %d %s", code, out)
	}

	out, errOut, code = c.run("uninstall")
	if got, _ := os.ReadFile(settings); code != 0 || string(got) != orig {
		t.Fatalf("uninstall: %d\n%s%s\nleft\n%s", code, out, errOut, got)
	}
	out, _, code = c.run("doctor")
	if code != 1 || !strings.Contains(out, "not registered") {
		t.Fatalf("doctor after uninstall: %d\n%s", code, out)
	}

	// A broken settings file: refused, named, untouched, exit 1.
	broken := "{\n  \"model\": \"opus\",\n}\n"
	os.WriteFile(settings, []byte(broken), 0o644)
	_, errOut, code = c.run("install", "--yes")
	if got, _ := os.ReadFile(settings); code != 1 || string(got) != broken || !strings.Contains(errOut, settings) || !strings.Contains(errOut, "not valid JSON: line 3") {
		t.Fatalf("install on broken JSON: %d %q", code, errOut)
	}
	if _, _, code := c.run("install", "stray"); code != 2 {
		t.Fatalf("stray argument: exit %d", code)
	}
}

func hookCommandFor(t *testing.T, doc []byte, event string) string {
	t.Helper()
	for _, e := range allEntries(t, doc) {
		if e.Event == event && e.isMew() {
			return e.Command
		}
	}
	t.Fatalf("no Mew hook for %s", event)
	return ""
}

// fixtureHooks are the hook payloads of a recorded real Claude Code run,
// in order, and its session id.
func fixtureHooks(t *testing.T, name string) ([][]byte, string) {
	t.Helper()
	run, err := fixture.LoadRun(filepath.Join(fixture.Root("2.1.328"), name))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, e := range run.Events {
		if e.Source == "hook" {
			out = append(out, e.Doc)
		}
	}
	return out, run.SessionID
}

// TestCommandLineCodex: `mew install` with Claude Code and Codex both
// installed does both and says so; Codex's hooks fire as Codex runs them
// (through a shell, the recorded payloads on stdin) and record Codex
// sessions; the doctor reports the hooks untrusted until Codex's own
// dialog trusted them; uninstall puts hooks.json back byte for byte.
func TestCommandLineCodex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook"); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	codexHome := filepath.Join(home, "codex-home")
	mewHome := filepath.Join(home, ".mew")
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	os.MkdirAll(codexHome, 0o700)
	hooks := filepath.Join(codexHome, "hooks.json")
	os.WriteFile(hooks, []byte(personsHooks), 0o644)
	c := cli{t: t, mew: mew, cwd: t.TempDir(), env: []string{
		"HOME=" + home, "CODEX_HOME=" + codexHome, "MEW_HOME=" + mewHome, "PATH=/usr/bin:/bin",
	}}

	out, errOut, code := c.run("install", "--yes")
	if code != 0 || !strings.Contains(out, "Claude Code:\n") || !strings.Contains(out, "Codex:\n") ||
		!strings.Contains(out, "Registered Mew's hook for 10 events in "+hooks) || !strings.Contains(out, `"Hooks need review"`) {
		t.Fatalf("install: %d\n%s%s", code, out, errOut)
	}
	installed := readFile(t, hooks)

	// The hooks of a recorded Codex run (b-approve), as Codex runs them.
	f, err := os.Open(filepath.Join("..", "testdata", "fixtures", "codex-0.169.0", "b-approve", "hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var sid string
	for dec.More() {
		var line struct {
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatal(err)
		}
		var p struct {
			SessionID string `json:"session_id"`
		}
		json.Unmarshal(line.Payload, &p)
		sid = p.SessionID
		cmd := exec.Command("sh", "-c", hookCommandFor(t, installed, line.Event))
		cmd.Env, cmd.Stdin = c.env, bytes.NewReader(line.Payload)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Fatalf("%s hook: %v %q", line.Event, err, out)
		}
		if line.Event == "PermissionRequest" {
			break
		}
	}
	var rec session.Record
	data, err := os.ReadFile(filepath.Join(mewHome, "sessions", sid+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := session.DecodeRecord(data, &rec); err != nil || rec.Agent != session.AgentCodex || rec.Hook.State != session.Waiting || rec.Hook.ToolDetail != "touch made-by-codex" {
		t.Fatalf("Codex session after its PermissionRequest: %v %q %+v", err, rec.Agent, rec.Hook)
	}

	out, _, code = c.run("doctor", "--agent", "codex")
	if code != 0 || !strings.Contains(out, "does not trust Mew's hooks yet") {
		t.Fatalf("doctor: %d\n%s", code, out)
	}
	if _, _, code := c.run("install", "--agent", "vim"); code != 2 {
		t.Fatalf("unknown agent: exit %d", code)
	}
	out, errOut, code = c.run("uninstall", "--agent", "codex")
	if got := readFile(t, hooks); code != 0 || string(got) != personsHooks || !strings.Contains(out, "exactly as it was") {
		t.Fatalf("uninstall: %d\n%s%s\nleft\n%s", code, out, errOut, got)
	}
	if !exists(filepath.Join(home, ".claude", "settings.json")) {
		t.Fatal("uninstall --agent codex touched Claude Code's settings")
	}
}
