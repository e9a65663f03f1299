package hookbin_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A spooled event folds into the same record the hook would have written
// itself: times, the agent, the process it captured (SessionStart always;
// a plugin's first event only where the record has none), in the order the
// hooks started.
func TestSpooledEventsFoldAsTheHookWould(t *testing.T) {
	procs := hostProcs{
		50: {Pid: 50, PPid: 30, Name: "mew-hook"},
		30: {Pid: 30, PPid: 1, Name: "opencode", Exe: "/usr/bin/opencode"},
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	events := []struct {
		agent, payload string
	}{
		{session.AgentClaude, `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup","cwd":"/p"}`},
		{session.AgentClaude, `{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"ship it"}`},
		{session.AgentClaude, `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"t1"}`},
		{session.AgentClaude, `{"session_id":"s1","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"t1"}`},
		{session.AgentOpenCode, `{"cwd":"/p","type":"session.status","properties":{"sessionID":"s2","status":{"type":"busy"}}}`},
		{session.AgentOpenCode, `{"cwd":"/p","type":"session.status","properties":{"sessionID":"s2","status":{"type":"idle"}}}`},
	}
	run := func(home string, i int) {
		e := events[i]
		hookbin.Run(hookbin.Options{
			Stdin:  strings.NewReader(e.payload),
			Getenv: func(string) string { return "" }, Now: t0.Add(time.Duration(i) * time.Second), Mono: int64(1000 + i),
			Pid: 50, Procs: procs, Store: store.Store{Home: home, Fold: hookbin.Fold}, Log: &hookbin.Log{Path: filepath.Join(home, "mew-hook.log")},
			Agent: e.agent,
		})
	}
	direct, spooled := t.TempDir(), t.TempDir()
	for i := range events {
		run(direct, i)
	}
	os.MkdirAll(filepath.Join(spooled, "sessions"), 0o700)
	var held []*flock.Flock
	for _, id := range []string{"s1", "s2"} {
		fl := flock.New(filepath.Join(spooled, "sessions", id+".json.lock"))
		if err := fl.Lock(); err != nil {
			t.Fatal(err)
		}
		held = append(held, fl)
	}
	for i := len(events) - 1; i >= 0; i-- { // spooled in reverse: folded by start
		run(spooled, i)
	}
	if log, _ := os.ReadFile(filepath.Join(spooled, "mew-hook.log")); len(log) > 0 {
		t.Fatalf("log: %s", log)
	}
	for _, fl := range held {
		fl.Unlock()
	}
	st := store.Store{Home: spooled, Fold: hookbin.Fold}
	for _, id := range []string{"s1", "s2"} {
		// Any writer folds the spool: here one that changes nothing itself.
		if _, err := st.Update(id, time.Second, func(*session.Record, bool) bool { return false }); err != nil {
			t.Fatal(err)
		}
		want, err := store.Store{Home: direct, Fold: hookbin.Fold}.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s folded from the spool:\n%+v\n%+v\nwant as written by the hook:\n%+v\n%+v", id, got.Hook, got.Process, want.Hook, want.Process)
		}
		if got.Process == nil || got.Process.Pid != 30 {
			t.Errorf("%s: process %+v, want the agent (30)", id, got.Process)
		}
	}
}
