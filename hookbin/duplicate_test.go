package hookbin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/store"
)

// deliverer runs the hook on a payload as it comes one way: via is
// MEW_HOOK_VIA ("plugin" from Mew's plugin, "" from a settings entry).
func deliverer(st store.Store, log *hookbin.Log) func(payload, via string, at time.Time) {
	return func(payload, via string, at time.Time) {
		hookbin.Run(hookbin.Options{
			Stdin: strings.NewReader(payload), Now: at, Pid: 50,
			Getenv: func(k string) string {
				if k == hookbin.ViaEnv {
					return via
				}
				return ""
			},
			Procs: hostProcs{}, Store: st, Log: log, LockTimeout: time.Second,
		})
	}
}

// One event delivered by both of Mew's ways at once (its plugin, with
// MEW_HOOK_VIA=plugin, and a settings entry) is folded once, even with
// another event's deliveries in between; the same payload twice through
// one way is two events (a prompt typed again, a status back to busy:
// OpenCode's plugin sends those), and so is a third delivery.
func TestDuplicateDeliveryIgnored(t *testing.T) {
	home := t.TempDir()
	st := store.Store{Home: home, Fold: hookbin.Fold}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	prompt := `{"session_id":"d1","hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":"/p"}`
	stop := `{"session_id":"d1","hook_event_name":"Stop","cwd":"/p"}`
	deliver := deliverer(st, &hookbin.Log{})
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	for i, c := range []struct {
		what    string
		payload string
		via     string
		at      time.Time
		want    int
	}{
		{"the plugin's delivery", prompt, "plugin", ms(0), 1},
		{"the settings entry's delivery of it", prompt, "", ms(30), 1},
		{"a third delivery: another event", prompt, "", ms(40), 2},
		{"the other way's delivery of that one, its clock a little behind", prompt, "plugin", ms(35), 2},
		{"another event through the settings entry", stop, "", ms(100), 3},
		{"the prompt again through the plugin, before Stop's pair", prompt, "plugin", ms(110), 4},
		{"Stop's plugin delivery", stop, "plugin", ms(120), 4},
		{"the prompt's settings delivery", prompt, "", ms(130), 4},
		{"the same payload twice through one way", stop, "", ms(200), 5},
		{"and again through it", stop, "", ms(210), 6},
		{"the other way's copy after the window", stop, "plugin", ms(210).Add(hookbin.DuplicateWindow), 7},
	} {
		deliver(c.payload, c.via, c.at)
		rec, err := st.Load("d1")
		if err != nil || rec.Hook == nil {
			t.Fatalf("no record: %v", err)
		}
		if got := rec.Hook.EventCount; got != c.want {
			t.Fatalf("step %d, %s: %d events folded, want %d", i, c.what, got, c.want)
		}
	}
}

// The two deliveries of one event race for the record's lock: the one
// that finds it taken is spooled, and whoever folds the spool notes the
// second delivery in the hook's log as the hook itself would (the log is
// how a person, and the e2e, count events delivered both ways).
func TestDuplicateDeliverySpooledIsLogged(t *testing.T) {
	home := t.TempDir()
	st := store.Store{Home: home, Fold: hookbin.Fold}
	logPath := filepath.Join(home, "mew-hook.log")
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	deliver := deliverer(st, &hookbin.Log{Path: logPath})
	permission := `{"session_id":"d2","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"make"},"cwd":"/p"}`
	deliver(permission, "plugin", t0)
	held := flock.New(filepath.Join(home, "sessions", "d2.json.lock"))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	deliver(permission, "", t0.Add(20*time.Millisecond)) // spooled
	held.Unlock()
	if log, _ := os.ReadFile(logPath); strings.Contains(string(log), "came twice") {
		t.Fatalf("noted before anyone folded the spool: %s", log)
	}
	deliver(`{"session_id":"d2","hook_event_name":"PostToolUse","tool_name":"Bash","cwd":"/p"}`, "plugin", t0.Add(time.Second))
	rec, err := st.Load("d2")
	if err != nil || rec.Hook == nil {
		t.Fatalf("no record: %v", err)
	}
	if rec.Hook.EventCount != 2 {
		t.Errorf("%d events folded, want 2 (the permission once, then PostToolUse)", rec.Hook.EventCount)
	}
	log, _ := os.ReadFile(logPath)
	if n := strings.Count(string(log), "PermissionRequest came twice"); n != 1 {
		t.Errorf("the spooled second delivery noted %d times, want 1:\n%s", n, log)
	}
}
