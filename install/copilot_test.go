package install

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// copilotDoc is the part of a Copilot CLI hooks file the tests read.
type copilotDoc struct {
	Version int `json:"version"`
	Hooks   map[string][]struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		TimeoutSec int    `json:"timeoutSec"`
	} `json:"hooks"`
}

// Mew's hooks file for Copilot CLI is a file of its own in
// $COPILOT_HOME/hooks: version 1, one command per event naming it; the
// person's hooks files there are never touched; uninstall leaves the folder
// byte for byte as it was.
func TestCopilotInstallUninstall(t *testing.T) {
	for _, name := range []string{"default", "COPILOT_HOME"} {
		t.Run(name, func(t *testing.T) {
			env := pluginEnv(t)
			home := filepath.Join(env.Home, ".copilot")
			if name == "COPILOT_HOME" {
				home = filepath.Join(env.Home, "elsewhere", "copilot")
				env.CopilotHome = home
			}
			dir := filepath.Join(home, "hooks")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "theirs.json"), []byte(`{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"true"}]}}`), 0o644)
			os.WriteFile(filepath.Join(home, "config.json"), []byte("// managed by Copilot\n{}\n"), 0o644)
			before := snapshot(t, home)
			if !Copilot.Installed(env, nil) {
				t.Fatal("Copilot's folder is there: it counts as installed")
			}

			rep, err := Install(Options{Env: env, Agent: Copilot})
			path := filepath.Join(dir, "mew.json")
			if err != nil || !rep.Wrote || !rep.Created || rep.Settings != path {
				t.Fatalf("install: %+v %v; want %s written", rep, err, path)
			}
			var doc copilotDoc
			if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Version != 1 || len(doc.Hooks) != len(reducer.CopilotEvents) {
				t.Fatalf("version %d, events %d; want version 1 and %v", doc.Version, len(doc.Hooks), reducer.CopilotEvents)
			}
			for _, ev := range reducer.CopilotEvents {
				want := `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook" --agent=copilot --event=` + ev
				if g := doc.Hooks[ev]; len(g) != 1 || g[0].Type != "command" || g[0].Bash != want || g[0].TimeoutSec != copilotTimeout {
					t.Errorf("%s: %+v; want %q", ev, g, want)
				}
			}
			if strings.Contains(string(readFile(t, path)), env.Home) {
				t.Error("the hooks file names the home folder (it is often shared in dotfiles)")
			}
			if rep, err := Install(Options{Env: env, Agent: Copilot}); err != nil || rep.Wrote {
				t.Fatalf("second install: %+v %v; want nothing to change", rep, err)
			}
			if got := Doctor(DoctorOptions{Env: env, Agents: []Agent{Copilot}}); got[0].Level != OK {
				t.Fatalf("doctor after install: %+v", got)
			}
			if rep, err := Uninstall(Options{Env: env, Agent: Copilot}); err != nil || !rep.Removed {
				t.Fatalf("uninstall: %+v %v", rep, err)
			}
			if after := snapshot(t, home); after != before {
				t.Fatalf("Copilot's folder changed:\nbefore %s\nafter  %s", before, after)
			}
			if got := Doctor(DoctorOptions{Env: env, Agents: []Agent{Copilot}}); got[0].Level != Problem {
				t.Fatalf("doctor after uninstall: %+v", got)
			}
		})
	}
}

// A mew.json that Mew did not write is neither overwritten nor removed.
func TestCopilotLeavesSomeonesMewJSON(t *testing.T) {
	env := pluginEnv(t)
	path := Copilot.Path(env)
	os.MkdirAll(filepath.Dir(path), 0o755)
	const theirs = `{"version":1,"hooks":{}}`
	os.WriteFile(path, []byte(theirs), 0o644)
	var fe *FileError
	if _, err := Install(Options{Env: env, Agent: Copilot}); !errors.As(err, &fe) {
		t.Fatalf("install over someone's mew.json: %v", err)
	}
	if _, err := Uninstall(Options{Env: env, Agent: Copilot}); !errors.As(err, &fe) {
		t.Fatalf("uninstall of someone's mew.json: %v", err)
	}
	if string(readFile(t, path)) != theirs {
		t.Fatal("someone's file changed")
	}
}

// Each command of the hooks file, run by bash as Copilot runs it with a
// recorded payload on stdin, reaches the real mew-hook: the session's
// record says what the event means, and nothing is printed.
func TestCopilotHooksRunTheHook(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	env := pluginEnv(t)
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{Env: env, Agent: Copilot, HookSource: hook}); err != nil {
		t.Fatal(err)
	}
	var doc copilotDoc
	if err := json.Unmarshal(readFile(t, Copilot.Path(env)), &doc); err != nil {
		t.Fatal(err)
	}
	const id = "2fedf538-7bf2-4ab8-9cd7-5b5c6ac56047"
	run := func(ev, payload string) {
		t.Helper()
		c := exec.Command(bash, "-c", doc.Hooks[ev][0].Bash)
		c.Env = []string{"HOME=" + env.Home, "PATH=/usr/bin:/bin"}
		c.Stdin = strings.NewReader(payload)
		start := time.Now()
		out, err := c.Output()
		if err != nil || len(out) != 0 {
			t.Fatalf("%s: %v, stdout %q; want exit 0 and nothing printed", ev, err, out)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %v", ev, d)
		}
	}
	state := func() session.State {
		rec, err := (store.Store{Home: env.MewHome, Fold: hookbin.Fold}).Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Agent != session.AgentCopilot {
			t.Fatalf("agent %q", rec.Agent)
		}
		return rec.Hook.State
	}
	base := `"sessionId":"` + id + `","timestamp":1796157805002,"cwd":"` + env.Home + `"`
	run("sessionStart", `{`+base+`,"source":"new","initialPrompt":"hi"}`)
	run("userPromptSubmitted", `{`+base+`,"prompt":"hi"}`)
	if s := state(); s != session.Working {
		t.Fatalf("after userPromptSubmitted: %s", s)
	}
	run("preToolUse", `{`+base+`,"toolName":"bash","toolArgs":{"command":"touch x"}}`)
	run("notification", `{`+base+`,"message":"Run command: touch x","title":"Permission needed","hook_event_name":"Notification","notification_type":"permission_prompt"}`)
	if s := state(); s != session.Waiting {
		t.Fatalf("after notification permission_prompt: %s", s)
	}
	run("agentStop", `{`+base+`,"stopReason":"end_turn"}`)
	if s := state(); s != session.Done {
		t.Fatalf("after agentStop: %s", s)
	}
	run("sessionEnd", "not json at all")
}
