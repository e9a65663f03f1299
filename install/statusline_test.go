package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/hookbin"
)

func TestStatuslineInstallUninstallRestoresBytes(t *testing.T) {
	cases := []struct{ name, doc string }{
		{"person's statusline", "{\n  \"model\": \"opus\",\n  \"statusLine\": {\"type\":\"command\",  \"command\": \"~/bin/line.sh \\\"x\\\"\", \"padding\": 2}\n}\n"},
		{"none, indented with tabs", "{\n\t\"model\": \"opus\"\n}"},
		{"none, one line", `{"model":"opus","theme":"dark"}`},
		{"statusline first, CRLF", "{\r\n  \"statusLine\": {\"type\": \"command\", \"command\": \"echo hi\"},\r\n  \"model\": \"x\"\r\n}\r\n"},
	}
	for _, withHooks := range []bool{false, true} {
		for _, c := range cases {
			t.Run(c.name+map[bool]string{true: " +hooks"}[withHooks], func(t *testing.T) {
				env := testEnv(t)
				writeSettings(t, env, c.doc, 0o644)
				if withHooks {
					if _, err := Install(Options{Env: env}); err != nil {
						t.Fatal(err)
					}
				}
				rep, err := InstallStatusline(Options{Env: env})
				if err != nil || !rep.Wrote {
					t.Fatalf("install: %+v %v", rep, err)
				}
				doc := readFile(t, env.SettingsPath())
				if !StatuslineInstalled(env) {
					t.Fatalf("not installed:\n%s", doc)
				}
				person := string(readFile(t, filepath.Join(env.MewHome, hookbin.StatuslineCommandFile)))
				if want := statuslineCommandOf(mustMember(t, []byte(c.doc))); person != want {
					t.Errorf("person's command kept as %q, want %q", person, want)
				}
				if strings.Contains(c.doc, `"padding": 2`) && !strings.Contains(string(doc), `"padding": 2`) {
					t.Errorf("padding lost:\n%s", doc)
				}
				if again, err := InstallStatusline(Options{Env: env}); err != nil || again.Wrote || !again.Already {
					t.Fatalf("reinstall: %+v %v", again, err)
				}
				if _, err := UninstallStatusline(Options{Env: env}); err != nil {
					t.Fatal(err)
				}
				if withHooks {
					if _, err := Uninstall(Options{Env: env}); err != nil {
						t.Fatal(err)
					}
				}
				if got := string(readFile(t, env.SettingsPath())); got != c.doc {
					t.Fatalf("after uninstall:\n%q\nwant\n%q", got, c.doc)
				}
				if _, err := os.Stat(filepath.Join(env.MewHome, hookbin.StatuslineCommandFile)); err == nil {
					t.Error("the command file stayed")
				}
			})
		}
	}
}

func mustMember(t *testing.T, doc []byte) []byte {
	v, _, err := topMember(doc, "statusLine")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStatuslineUninstallLeavesAnotherStatusline(t *testing.T) {
	env := testEnv(t)
	writeSettings(t, env, `{"model":"opus"}`, 0o644)
	if _, err := InstallStatusline(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	theirs := `{"model":"opus","statusLine":{"type":"command","command":"new.sh"}}`
	writeSettings(t, env, theirs, 0o644)
	rep, err := UninstallStatusline(Options{Env: env})
	if err != nil || !rep.NotOurs || rep.Wrote {
		t.Fatalf("%+v %v", rep, err)
	}
	if got := string(readFile(t, env.SettingsPath())); got != theirs {
		t.Fatalf("changed: %s", got)
	}
}

func TestStatuslineRefusesBadSettings(t *testing.T) {
	env := testEnv(t)
	bad := `{"statusLine": 1, "statusLine": 2}`
	writeSettings(t, env, bad, 0o644)
	if _, err := InstallStatusline(Options{Env: env}); err == nil {
		t.Fatal("installed over a duplicate key")
	}
	if got := string(readFile(t, env.SettingsPath())); got != bad {
		t.Fatalf("changed: %s", got)
	}
}

func TestStatuslineKeepsThePersonsOptions(t *testing.T) {
	env := testEnv(t)
	writeSettings(t, env, `{"statusLine": {"type": "command", "command": "a.sh", "padding": 0, "refreshInterval": 5, "hideVimModeIndicator": true}}`, 0o644)
	if _, err := InstallStatusline(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	v := string(mustMember(t, readFile(t, env.SettingsPath())))
	command, _ := StatuslineCommand(env.MewHome, env.Home)
	for _, want := range []string{`"padding": 0`, `"refreshInterval": 5`, `"hideVimModeIndicator": true`} {
		if !strings.Contains(v, want) {
			t.Errorf("lost %s: %s", want, v)
		}
	}
	if statuslineCommandOf([]byte(v)) != command {
		t.Errorf("command: %s", v)
	}
}

func TestDoctorSaysStatuslineSource(t *testing.T) {
	env, _ := installed(t)
	if fs := Doctor(DoctorOptions{Env: env}); len(find(fs, "statusline")) != 0 {
		t.Fatalf("a finding about a statusline never installed:\n%s", dump(fs))
	}
	writeSettings(t, env, string(readFile(t, env.SettingsPath())), 0o644)
	if _, err := InstallStatusline(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	expectFinding(t, Doctor(DoctorOptions{Env: env}), OK, "you had no statusline command of your own")
	os.Remove(filepath.Join(env.MewHome, statuslineRecordName))
	expectFinding(t, Doctor(DoctorOptions{Env: env}), Warning, "cannot give your own statusLine back")
}
