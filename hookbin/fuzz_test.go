package hookbin_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// FuzzHookPayload feeds arbitrary payloads to the hook's handler: it never
// panics, never writes to stdout, and whatever it stores is a valid record
// of a safely named session.
func FuzzHookPayload(f *testing.F) {
	runs, err := fixture.Load(fixture.Root("2.1.328"))
	if err != nil {
		f.Fatal(err)
	}
	for _, r := range runs {
		for _, e := range r.Events {
			if e.Source == "hook" {
				f.Add([]byte(e.Doc))
			}
		}
	}
	f.Add([]byte(`{"session_id":"a","hook_event_name":"Notification","notification_type":"permission_prompt"}`))
	f.Add([]byte(`{"session_id":"a","hook_event_name":"PreToolUse","tool_input":"not an object"}`))
	f.Add([]byte(`{"session_id":"../a","hook_event_name":"Stop"}`))
	f.Add([]byte(`{"session_id":"a","hook_event_name":"StopFailure","error":{"type":[1]}}`))
	f.Add([]byte(``))

	f.Fuzz(func(t *testing.T, payload []byte) {
		home := t.TempDir()
		st := store.Store{Home: home, Fold: hookbin.Fold}
		stdout := os.Stdout
		capture, err := os.CreateTemp(home, "stdout")
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout = capture
		defer func() { os.Stdout = stdout }()

		hookbin.Run(hookbin.Options{
			Stdin: bytes.NewReader(payload), Getenv: func(string) string { return "" },
			Now: time.Unix(1796065493, 0), Pid: os.Getpid(), Procs: proctree.Lean{}, Store: st,
			Log: &hookbin.Log{Path: filepath.Join(home, "mew-hook.log")}, LockTimeout: time.Second,
		})

		os.Stdout = stdout
		if fi, _ := capture.Stat(); fi.Size() != 0 {
			t.Fatalf("wrote %d bytes to stdout", fi.Size())
		}
		recs, errs := st.List()
		if len(errs) > 0 {
			t.Fatalf("stored something unreadable: %v", errs)
		}
		for _, r := range recs {
			if !session.ValidID(r.ID) || r.Hook == nil {
				t.Fatalf("bad record %+v", r)
			}
		}
	})
}
