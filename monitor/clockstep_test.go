package monitor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

// The whole path across a wall clock stepped back an hour: Claude Code's
// registry says waiting (its statusUpdatedAt from before the step), Mew
// reads it; the clock goes back; the person answers and the hook records
// PostToolUse. The session is working, not waiting. And the same run
// without a step, where the registry reading is newer, still shows it.
func TestClockStepBackKeepsNewerHookEvents(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	const boot = int64(5000 * time.Second) // the monotonic clock at t0
	for _, c := range []struct {
		name     string
		step     time.Duration
		hookAt   time.Duration // after t0, on the monotonic clock
		want     session.State
		wantFrom string
	}{
		{"clock stepped back 1h, hook 5 s later", -time.Hour, 5 * time.Second, session.Working, "hook:PreToolUse"},
		{"no step, hook 5 s later", 0, 5 * time.Second, session.Working, "hook:PreToolUse"},
		{"no step, the registry reading is the newer", 0, -2 * time.Second, session.Waiting, "registry:waiting"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			regDir := filepath.Join(t.TempDir(), "sessions")
			os.MkdirAll(regDir, 0o700)
			st := store.Store{Home: home, Fold: hookbin.Fold}
			hook := func(payload string, wall time.Time, mono int64) {
				hookbin.Run(hookbin.Options{
					Stdin: bytes.NewReader([]byte(payload)), Getenv: func(string) string { return "" },
					Now: wall, Mono: mono, Pid: os.Getpid(), Procs: proctree.Lean{}, Store: st,
					Log: &hookbin.Log{Path: filepath.Join(home, "mew-hook.log")}, LockTimeout: time.Second,
				})
			}
			id := "9f1c2d3e-0000-4000-8000-000000000001"
			hook(`{"session_id":"`+id+`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"}}`,
				t0.Add(-3*time.Second), boot-int64(3*time.Second))
			// The registry's waiting, set at t0 and read 50 ms later.
			doc := fmt.Sprintf(`{"pid":%d,"sessionId":%q,"cwd":"/p","status":"waiting","waitingFor":"permission prompt","statusUpdatedAt":%d}`,
				os.Getpid(), id, t0.UnixMilli())
			os.WriteFile(filepath.Join(regDir, fmt.Sprintf("%d.json", os.Getpid())), []byte(doc), 0o600)
			clock := t0.Add(50 * time.Millisecond)
			monoNow := boot + int64(50*time.Millisecond)
			o := Options{Store: st, Sources: []Source{registry.New(regDir)}, Procs: proctree.Lean{}, Now: func() time.Time { return clock }, Mono: func() int64 { return monoNow }}
			if shown, errs := Snapshot(o); len(errs) > 0 || len(shown) != 1 || shown[0].State != session.Waiting {
				t.Fatalf("before: %+v %v", shown, errs)
			}
			// The clock steps; the hook fires c.hookAt after t0 (real time).
			hookWall := t0.Add(c.step + c.hookAt)
			hook(`{"session_id":"`+id+`","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"}}`,
				hookWall, boot+int64(c.hookAt))
			clock, monoNow = t0.Add(c.step+c.hookAt+time.Second), boot+int64(c.hookAt+time.Second)
			shown, errs := Snapshot(o)
			if len(errs) > 0 || len(shown) != 1 {
				t.Fatalf("after: %+v %v", shown, errs)
			}
			if shown[0].State != c.want || shown[0].Source != c.wantFrom {
				t.Fatalf("after: %s by %s, want %s by %s", shown[0].State, shown[0].Source, c.want, c.wantFrom)
			}
		})
	}
}
