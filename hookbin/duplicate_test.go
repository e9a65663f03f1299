package hookbin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/store"
)

// One event delivered twice (Mew's plugin and a settings entry of Mew's
// both run the hook, at once) is folded once; the same payload later, or
// another payload at once, is an event of its own.
func TestDuplicateDeliveryIgnored(t *testing.T) {
	home := t.TempDir()
	st := store.Store{Home: home}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	prompt := `{"session_id":"d1","hook_event_name":"UserPromptSubmit","prompt":"hi","cwd":"/p"}`
	stop := `{"session_id":"d1","hook_event_name":"Stop","cwd":"/p"}`
	deliver := func(payload string, at time.Time) {
		hookbin.Run(hookbin.Options{
			Stdin: strings.NewReader(payload), Getenv: func(string) string { return "" }, Now: at, Pid: 50,
			Procs: hostProcs{}, Store: st, Log: &hookbin.Log{}, LockTimeout: time.Second,
		})
	}
	count := func() int {
		rec, err := st.Load("d1")
		if err != nil || rec.Hook == nil {
			t.Fatalf("no record: %v", err)
		}
		return rec.Hook.EventCount
	}
	for _, c := range []struct {
		what    string
		payload string
		at      time.Time
		want    int
	}{
		{"first delivery", prompt, t0, 1},
		{"the same payload 30 ms later: the second delivery", prompt, t0.Add(30 * time.Millisecond), 1},
		{"the second delivery's clock a little behind", prompt, t0.Add(-10 * time.Millisecond), 1},
		{"another event at once", stop, t0.Add(40 * time.Millisecond), 2},
		{"the first event's second delivery after the other's first", prompt, t0.Add(50 * time.Millisecond), 2},
		{"the other's second delivery", stop, t0.Add(60 * time.Millisecond), 2},
		{"the same payload after the window: a new event", prompt, t0.Add(60*time.Millisecond + hookbin.DuplicateWindow), 3},
	} {
		deliver(c.payload, c.at)
		if got := count(); got != c.want {
			t.Errorf("%s: %d events folded, want %d", c.what, got, c.want)
		}
	}
}
