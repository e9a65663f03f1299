package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/reducer"
)

// Antigravity CLI's ~/.gemini/config/hooks.json: Mew's entries next to
// the person's, every event of reducer.AgyEvents, named; uninstall puts the
// exact bytes back; a file Mew created is removed.
func TestAgyInstallUninstall(t *testing.T) {
	env := pluginEnv(t)
	path := Agy.Path(env)
	if path != filepath.Join(env.GeminiDir, "config", "hooks.json") {
		t.Fatalf("path %s", path)
	}
	const persons = "{\n  \"hooks\": {\n    \"PreToolUse\": [ { \"matcher\": \"run_command\", \"hooks\": [ { \"type\": \"command\", \"command\": \"audit-log\" } ] } ]\n  }\n}\n"
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(persons), 0o600)
	if _, err := Install(Options{Env: env, Agent: Agy}); err != nil {
		t.Fatal(err)
	}
	got := string(readFile(t, path))
	for _, e := range reducer.AgyEvents {
		if !strings.Contains(got, `"`+e+`"`) {
			t.Errorf("no %s entry:\n%s", e, got)
		}
	}
	if !strings.Contains(got, `--agent=agy`) || !strings.Contains(got, `"name": "mew"`) || !strings.Contains(got, "audit-log") {
		t.Fatalf("hooks.json after install:\n%s", got)
	}
	fs := Doctor(DoctorOptions{Env: env, Agents: []Agent{Agy}})
	expectFinding(t, fs, OK, "registered for all 4 events")
	expectFinding(t, fs, Warning, "unverified")
	if _, err := Uninstall(Options{Env: env, Agent: Agy}); err != nil {
		t.Fatal(err)
	}
	if after := string(readFile(t, path)); after != persons {
		t.Fatalf("uninstall left:\n%s\nwant the person's bytes back", after)
	}

	fresh := pluginEnv(t)
	if _, err := Install(Options{Env: fresh, Agent: Agy}); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(Options{Env: fresh, Agent: Agy}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Agy.Path(fresh)); !os.IsNotExist(err) {
		t.Fatalf("the hooks.json Mew created is still there: %v", err)
	}
}

// `mew doctor` with agy installed lists the hooks agy says it loads (its
// own `agy -p /hooks --output-format json`), and warns of Mew's events
// missing from that list; without agy it says which events agy fires.
func TestAgyDoctorListsEffectiveHooks(t *testing.T) {
	env := pluginEnv(t)
	if _, err := Install(Options{Env: env, Agent: Agy}); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	fake := filepath.Join(bin, "agy")
	const list = `{"hooks":[{"event":"SessionStart","name":"mew"},{"event":"PreInvocation","name":"mew"},{"event":"Stop","name":"mew"}]}`
	script := "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"-p /hooks --output-format json\" ] || exit 3\necho '" + list + "'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	look := func(name string) (string, error) {
		if name == "agy" {
			return fake, nil
		}
		return "", os.ErrNotExist
	}
	fs := Doctor(DoctorOptions{Env: env, Agents: []Agent{Agy}, LookPath: look})
	expectFinding(t, fs, OK, "loads hooks for SessionStart, PreInvocation, Stop")
	expectFinding(t, fs, Warning, "has none for PostInvocation")
	expectFinding(t, fs, OK, "registered for all 4 events")

	fs = Doctor(DoctorOptions{Env: env, Agents: []Agent{Agy}})
	expectFinding(t, fs, OK, "fires SessionStart, PreInvocation, PostInvocation, Stop")
}
