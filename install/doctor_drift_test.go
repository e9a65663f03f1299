package install

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Another tool's installer rewrote Mew's entries (agent-deck's `hooks
// install` dropped Mew's "timeout": 10): the doctor says so, and `mew
// install` puts them back.
func TestDoctorFlagsEntriesAnotherProgramChanged(t *testing.T) {
	cases := map[string]func(string) string{
		"no timeout": func(s string) string { return strings.ReplaceAll(s, `,"timeout":10`, ``) },
		"timeout":    func(s string) string { return strings.ReplaceAll(s, `"timeout":10`, `"timeout":600`) },
		"a matcher":  func(s string) string { return strings.Replace(s, `"matcher":"*"`, `"matcher":"Bash"`, 1) },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			env, src := installed(t)
			fs := Doctor(DoctorOptions{Env: env, HookSource: src})
			if len(find(fs, "changed by another program")) > 0 {
				t.Fatalf("a fresh install flagged:\n%s", dump(fs))
			}
			data := readFile(t, env.SettingsPath())
			compact := compactJSON(t, data)
			changed := change(compact)
			if changed == compact {
				t.Fatalf("the case changed nothing in %s", compact)
			}
			os.WriteFile(env.SettingsPath(), []byte(changed), 0o600)
			fs = Doctor(DoctorOptions{Env: env, HookSource: src})
			expectFinding(t, fs, Problem, "changed by another program ("+map[string]string{"no timeout": "no timeout", "timeout": "timeout 600 instead of 10", "a matcher": "a matcher"}[name])
			if _, err := Install(Options{Env: env, HookSource: src}); err != nil {
				t.Fatal(err)
			}
			if fs := Doctor(DoctorOptions{Env: env, HookSource: src}); len(find(fs, "changed by another program")) > 0 {
				t.Fatalf("mew install did not put them back:\n%s", dump(fs))
			}
		})
	}
}

// Gemini CLI shows an entry's name in its status row, else the command
// line: Mew's entries are named.
func TestGeminiEntriesCarryAName(t *testing.T) {
	env := pluginEnv(t)
	if _, err := Install(Options{Env: env, Agent: Gemini}); err != nil {
		t.Fatal(err)
	}
	got := compactJSON(t, readFile(t, Gemini.Path(env)))
	if n := strings.Count(got, `{"name":"mew","type":"command"`); n != len(Gemini.Events) {
		t.Fatalf("%d named entries, want %d:\n%s", n, len(Gemini.Events), got)
	}
	if rep, err := Install(Options{Env: env, Agent: Gemini}); err != nil || rep.Wrote {
		t.Fatalf("second install: %+v %v", rep, err)
	}
	if _, err := Uninstall(Options{Env: env, Agent: Gemini}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(Gemini.Path(env)); err == nil && strings.Contains(string(data), "mew-hook") {
		t.Fatalf("uninstall left Mew's entries:\n%s", data)
	}
}

func compactJSON(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
