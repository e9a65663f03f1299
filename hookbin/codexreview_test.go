package hookbin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// Codex with its own auto-review on: a PermissionRequest fires for calls
// the reviewer then approves unasked; the session stays working (the
// screen says when a dialog shows after all). With auto-review off it
// waits at once, as before.
func TestCodexAutoReviewedRequestIsNoWait(t *testing.T) {
	bin := hookBinary(t)
	configs := map[string]struct {
		toml string
		want session.State
	}{
		"auto-review":          {`model = "gpt-6"` + "\n" + `approvals_reviewer = "auto_review"  # Codex reviews first` + "\n[features]\nx = true\n", session.Working},
		"no config":            {"", session.Waiting},
		"reviewer is the user": {`approvals_reviewer = "user"` + "\n", session.Waiting},
		"only in a table":      {"[profiles.fast]\n" + `approvals_reviewer = "auto_review"` + "\n", session.Waiting},
	}
	for name, c := range configs {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			codexHome := filepath.Join(t.TempDir(), "codex")
			os.MkdirAll(codexHome, 0o700)
			if c.toml != "" {
				os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(c.toml), 0o600)
			}
			for _, p := range []string{
				`{"session_id":"cx1","hook_event_name":"UserPromptSubmit","prompt":"clean up"}`,
				`{"session_id":"cx1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"},"tool_use_id":"call_1"}`,
				`{"session_id":"cx1","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`,
			} {
				if r := runHookCommand(t, hookbin.RunEnv+` "$0" `+hookbin.AgentFlag+session.AgentCodex, bin, home, strings.NewReader(p), "CODEX_HOME="+codexHome); r.exit != 0 || r.stdout != "" {
					t.Fatalf("hook: %+v", r)
				}
			}
			rec, err := (&store.Store{Home: home, Fold: hookbin.Fold}).Load("cx1")
			if err != nil {
				t.Fatal(err)
			}
			if rec.Hook.State != c.want {
				t.Fatalf("state %s (%s), want %s", rec.Hook.State, rec.Hook.Source, c.want)
			}
		})
	}
}
