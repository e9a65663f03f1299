package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// The same plugin file under a stand-in of OpenCode 2.x's plugin host
// (testdata/opencode2-host.mjs: default export { id, setup }, events
// through ctx.event.subscribe as { type, data }), with the real mew-hook:
// a turn, a permission asked with action/resources, a form, the end.
func TestOpenCodePluginRunsOnAV2Host(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	env := pluginEnv(t)
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{Env: env, Agent: OpenCode, HookSource: hook}); err != nil {
		t.Fatal(err)
	}
	host, err := filepath.Abs(filepath.Join("testdata", "opencode2-host.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	const id = "ses_v2host0001"
	ev := func(typ, data string) string {
		return `{"type":"` + typ + `","data":{"sessionID":"` + id + `"` + data + `}}`
	}
	st := store.Store{Home: env.MewHome, Fold: hookbin.Fold}
	run := func(t *testing.T, events []string, want func(*session.HookState) bool) {
		t.Helper()
		os.RemoveAll(filepath.Join(env.MewHome, "sessions"))
		cmd := exec.Command(node, host, OpenCode.Path(env))
		cmd.Env = append(os.Environ(), "HOME="+env.Home)
		cmd.Stdin = strings.NewReader(strings.Join(events, "\n"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cmd.Process.Kill()
			cmd.Wait()
			if out.Len() > 0 {
				t.Errorf("the host printed (the plugin did not load, or it wrote something):\n%s", out.String())
			}
		}()
		deadline := time.Now().Add(10 * time.Second)
		for {
			rec, err := st.Load(id)
			if err == nil && rec.Hook != nil && rec.Hook.EventCount == len(events) {
				if !want(rec.Hook) || rec.Agent != session.AgentOpenCode || rec.Hook.Cwd != "/work/proj" {
					t.Fatalf("record agent %q hook %+v", rec.Agent, rec.Hook)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %d events: %+v (%v)", len(events), rec.Hook, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	started := ev("session.execution.started", ``)
	asked := ev("permission.asked", `,"id":"per_1","action":"bash","resources":["rm -rf build"]`)
	t.Run("permission", func(t *testing.T) {
		run(t, []string{started, asked}, func(h *session.HookState) bool {
			return h.State == session.Waiting && h.Reason == session.ReasonPermission && h.Tool == "bash"
		})
	})
	t.Run("form", func(t *testing.T) {
		run(t, []string{started, ev("form.asked", `,"id":"frm_1"`)}, func(h *session.HookState) bool {
			return h.State == session.Waiting && h.Reason == session.ReasonQuestion
		})
	})
	t.Run("succeeded", func(t *testing.T) {
		run(t, []string{started, asked, ev("permission.replied", `,"requestID":"per_1","reply":"once"`), ev("session.execution.succeeded", ``)},
			func(h *session.HookState) bool { return h.State == session.Done })
	})
	t.Run("interrupted", func(t *testing.T) {
		run(t, []string{started, ev("session.execution.interrupted", ``)}, func(h *session.HookState) bool { return h.State == session.Idle })
	})
	t.Run("failed", func(t *testing.T) {
		run(t, []string{started, ev("session.execution.failed", `,"error":"APIError"`)}, func(h *session.HookState) bool { return h.State == session.Failed })
	})
}

// The stand-in host refuses what OpenCode 2 refuses: a 1.x-only plugin.
func TestV2HostRefusesAV1OnlyPlugin(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	v1 := filepath.Join(t.TempDir(), "v1.js")
	os.WriteFile(v1, []byte("export const P = async () => ({ event: async () => {} })\n"), 0o600)
	host, _ := filepath.Abs(filepath.Join("testdata", "opencode2-host.mjs"))
	cmd := exec.Command(node, host, v1)
	cmd.Stdin = strings.NewReader("")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "not a V2 plugin") {
		t.Fatalf("the host ran a 1.x plugin: %v %s", err, out)
	}
}

// What OpenCode 1.18 checks before it starts with a plugin in its folder
// (see opencode_offline.go), and that install makes it pass only where it
// may, and uninstall leaves the folder as it found it.
func TestOpenCodeInstallNeedsNoRegistry(t *testing.T) {
	cases := []struct {
		name          string
		pkg, lock     string
		modules       bool
		wantLock      bool
		wantNeedsNet  bool
		wantModulesBy bool // Mew makes node_modules
	}{
		{name: "empty folder", wantLock: true, wantModulesBy: true},
		{name: "OpenCode's own install", pkg: `{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}`, lock: `{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}`, modules: true},
		{name: "package.json, no lock", pkg: `{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}`, modules: true, wantLock: true},
		{name: "the person's own dependency", pkg: `{"dependencies":{"left-pad":"1.0.0"}}`, modules: true, wantNeedsNet: true},
		{name: "a lock of the person's without the package", lock: `{"lockfileVersion":3,"packages":{"":{}}}`, modules: true, wantNeedsNet: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := pluginEnv(t)
			cfg := filepath.Dir(OpenCode.Dir(env))
			os.MkdirAll(OpenCode.Dir(env), 0o755) // the plugins folder stays after uninstall, as always
			if c.pkg != "" {
				os.WriteFile(filepath.Join(cfg, "package.json"), []byte(c.pkg), 0o644)
			}
			if c.lock != "" {
				os.WriteFile(filepath.Join(cfg, "package-lock.json"), []byte(c.lock), 0o644)
			}
			if c.modules {
				os.MkdirAll(filepath.Join(cfg, "node_modules", "@opencode-ai", "plugin"), 0o755)
			}
			before := snapshot(t, cfg)
			dry, err := Install(Options{Env: env, Agent: OpenCode, DryRun: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(dry.Also) > 0; got != (c.wantLock || c.wantModulesBy) {
				t.Errorf("the report names %v, want the files Mew makes", dry.Also)
			}
			if snapshot(t, cfg) != before {
				t.Fatal("a dry run changed the folder")
			}
			if _, err := Install(Options{Env: env, Agent: OpenCode}); err != nil {
				t.Fatal(err)
			}
			lock, _ := os.ReadFile(filepath.Join(cfg, "package-lock.json"))
			if got := bytes.Equal(lock, openCodeLock); got != c.wantLock {
				t.Errorf("Mew's lock written: %v, want %v", got, c.wantLock)
			}
			f, err := planOffline(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if f.needsNetwork != c.wantNeedsNet || f.makeModules || f.writeLock {
				t.Errorf("after install: %+v; OpenCode would install at start: %v, want %v", f, f.needsNetwork || f.makeModules || f.writeLock, c.wantNeedsNet)
			}
			_, mark := os.Stat(filepath.Join(cfg, "node_modules", modulesMark))
			if (mark == nil) != c.wantModulesBy {
				t.Errorf("Mew's node_modules: %v, want %v", mark == nil, c.wantModulesBy)
			}
			if _, err := Uninstall(Options{Env: env, Agent: OpenCode}); err != nil {
				t.Fatal(err)
			}
			if after := snapshot(t, cfg); after != before {
				t.Fatalf("uninstall left the folder changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}
