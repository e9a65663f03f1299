package monitor_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/agy"
)

// An agy session its hooks reported (they carry no prompt and no reply)
// gets its title and its last reply from the transcript they named, and
// the transcript's newer step decides: a turn whose reply is written is
// done though the hooks last said working.
func TestAgyTranscriptJoinsItsHookSession(t *testing.T) {
	e := newEnv(t)
	brain := filepath.Join(t.TempDir(), "brain")
	id := "3a9d2c4e-0b1f-4c7a-8e2d-5f6a7b8c9d0e"
	transcript := filepath.Join(brain, id, ".system_generated", "logs", "transcript.jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o755)
	hookAt := time.Now().Add(-10 * time.Second).UTC()
	_, err := e.opts.Store.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
		rec.Agent = session.AgentAgy
		rec.Hook = &session.HookState{State: session.Working, Since: hookAt, At: hookAt, Source: "hook:PostToolUse", TranscriptPath: transcript}
		p := session.Process{Pid: e.self.Pid, StartMs: e.self.StartMs}
		rec.Process = &p
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	reply := hookAt.Add(5 * time.Second).Format(time.RFC3339Nano)
	os.WriteFile(transcript, []byte(
		`{"step_index":1,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"`+hookAt.Add(-time.Second).Format(time.RFC3339Nano)+`","content":"<USER_REQUEST>\nrename the flag\n</USER_REQUEST>"}`+"\n"+
			`{"step_index":2,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"`+reply+`","content":"Renamed it."}`+"\n"), 0o644)
	e.opts.Sources = []monitor.Source{&agy.Source{Brain: brain, Sessions: agy.FromStore(e.opts.Store)}}
	shown, errs := monitor.Snapshot(e.opts)
	if len(errs) > 0 || len(shown) != 1 {
		t.Fatalf("Snapshot: %+v %v", shown, errs)
	}
	s := shown[0]
	if s.ID != id || s.State != session.Done || s.Source != "transcript:PLANNER_RESPONSE" || s.Title != "rename the flag" || s.LastMessage != "Renamed it." {
		t.Fatalf("shown %+v: want done by the transcript, with its title and reply", s)
	}
}
