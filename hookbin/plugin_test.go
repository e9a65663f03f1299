package hookbin_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// OpenCode's events come from Mew's plugin (`mew-hook --agent=opencode`),
// in OpenCode's own shape. A session OpenCode continues sends no
// session.created: the first event Mew sees records the process then, once.
func TestPluginEventsRecordTheProcessOnce(t *testing.T) {
	bin := hookBinary(t)
	home := t.TempDir()
	run := func(payload string) {
		t.Helper()
		r := runHookCommand(t, hookbin.RunEnv+` "$0" --agent=opencode`, bin, home, strings.NewReader(payload))
		if r.exit != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("%+v", r)
		}
	}
	run(`{"cwd":"/p/proj","type":"session.status","properties":{"sessionID":"ses_1","status":{"type":"busy"}}}`)
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("ses_1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Agent != session.AgentOpenCode || rec.Hook.State != session.Working || rec.Hook.Cwd != "/p/proj" {
		t.Fatalf("agent %q hook %+v", rec.Agent, rec.Hook)
	}
	if rec.Process == nil || rec.Process.Pid != os.Getpid() {
		t.Fatalf("process %+v, want this test (the hook's nearest non-shell ancestor)", rec.Process)
	}
	first := *rec.Process
	run(`{"cwd":"/p/proj","type":"session.status","properties":{"sessionID":"ses_1","status":{"type":"idle"}}}`)
	rec, _ = store.Store{Home: home, Fold: hookbin.Fold}.Load("ses_1")
	if rec.Hook.State != session.Done || rec.Process.HookPid != first.HookPid {
		t.Fatalf("after idle: %s, process %+v (recorded again: hook pid %d, first %d)", rec.Hook.State, rec.Process, rec.Process.HookPid, first.HookPid)
	}
	// Not a plugin event at all: logged and dropped.
	run(`{"session_id":"ses_2","hook_event_name":"Stop"}`)
	if _, err := (store.Store{Home: home, Fold: hookbin.Fold}).Load("ses_2"); err == nil {
		t.Fatal("a Claude-shaped payload was recorded as OpenCode's")
	}
}
