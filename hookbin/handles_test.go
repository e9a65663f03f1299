package hookbin_test

import (
	"testing"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/store"
)

// Each terminal's own handle for the session's tab is recorded at
// SessionStart: the jump plans with them first (jump.Make).
func TestSessionStartRecordsEachTerminalsHandle(t *testing.T) {
	bin := hookBinary(t)
	home := t.TempDir()
	handles := map[string]string{
		"ITERM_SESSION_ID":    "w0t1p0:0B0C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F",
		"WARP_FOCUS_URL":      "warp://session/7b1c0e4a",
		"ZELLIJ":              "0",
		"ZELLIJ_PANE_ID":      "3",
		"ZELLIJ_SESSION_NAME": "dreamy-cat",
		"KITTY_WINDOW_ID":     "4",
		"WEZTERM_PANE":        "12",
		"GHOSTTY_SURFACE_ID":  "0xb352563abc664447",
		"TMUX_PANE":           "%7",
	}
	var env []string
	for k, v := range handles {
		env = append(env, k+"="+v)
	}
	r := runHook(t, bin, home, []byte(`{"session_id":"h1","hook_event_name":"SessionStart","source":"startup","cwd":"/p"}`), env...)
	if r.exit != 0 || r.stdout != "" {
		t.Fatalf("%+v", r)
	}
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("h1")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range handles {
		if got := rec.Process.Env[k]; got != v {
			t.Errorf("%s recorded as %q, want %q", k, got, v)
		}
	}
}
