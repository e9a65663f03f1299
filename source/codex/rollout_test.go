package codex

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/session"
)

const sid = "01a22f14-9a6c-76f1-9739-9d3cb1621146"

// Lines as Codex 0.169.0 writes them (from the recordings).
var (
	started   = `{"timestamp":"2026-12-01T00:50:09.190Z","ordinal":1,"type":"event_msg","payload":{"type":"task_started","turn_id":"t1","started_at":1796086209,"model_context_window":258400,"collaboration_mode_kind":"default"}}`
	completed = `{"timestamp":"2026-12-01T00:50:11.561Z","ordinal":18,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"Done.","started_at":1796086209,"completed_at":1796086211,"duration_ms":2375}}`
	failed    = `{"timestamp":"2026-12-01T00:50:27.268Z","ordinal":9,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":null,"error":{"message":"We’re currently experiencing high demand, which may cause temporary errors.","codex_error_info":"internal_server_error"},"duration_ms":73}}`
	aborted   = `{"timestamp":"2026-12-01T00:50:30.001Z","ordinal":11,"type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t1","reason":"interrupted","duration_ms":3148}}`
	meta      = `{"timestamp":"2026-12-01T00:50:09.190Z","ordinal":0,"type":"session_meta","payload":{"session_id":"` + sid + `","id":"` + sid + `","cwd":"/Users/dev/proj","originator":"codex-tui","cli_version":"0.169.0"}}`
	prompt    = `{"timestamp":"2026-12-01T00:50:09.235Z","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","turn_id":"t1","item":{"type":"UserMessage","id":"u1","content":[{"type":"text","text":"please mew-shell\nsecond line"}]}}}`
	tokens    = `{"timestamp":"2026-12-01T00:50:11.548Z","ordinal":17,"type":"event_msg","payload":{"type":"token_count","info":null}}`
)

func fold(lines ...string) session.LogState {
	var st session.LogState
	for _, l := range lines {
		if p, ok := ParseLine([]byte(l)); ok {
			Fold(&st, p)
		}
	}
	return st
}

func TestFold(t *testing.T) {
	cases := []struct {
		name   string
		lines  []string
		state  session.State
		source string
	}{
		{"a new session is idle", []string{meta}, session.Idle, "rollout:session_meta"},
		{"task_started → working", []string{meta, started, prompt, tokens}, session.Working, "rollout:task_started"},
		{"task_complete → done", []string{meta, started, completed}, session.Done, "rollout:task_complete"},
		{"task_complete with an error → failed", []string{meta, started, failed}, session.Failed, "rollout:task_complete"},
		{"turn_aborted → idle", []string{meta, started, aborted}, session.Idle, "rollout:turn_aborted"},
		{"a new turn after a failure works", []string{started, failed, started}, session.Working, "rollout:task_started"},
	}
	for _, c := range cases {
		st := fold(c.lines...)
		if st.State != c.state || st.Source != c.source {
			t.Errorf("%s: %s from %s, want %s from %s", c.name, st.State, st.Source, c.state, c.source)
		}
	}
	st := fold(meta, started, prompt, failed)
	if st.Error != "We’re currently experiencing high demand, which may cause temporary errors." || st.Cwd != "/Users/dev/proj" || st.Title != "please mew-shell" {
		t.Errorf("details: %+v", st)
	}
	if want := time.Date(2026, 12, 1, 0, 50, 27, 268e6, time.UTC); !st.Since.Equal(want) || !st.At.Equal(want) {
		t.Errorf("since %v at %v, want %v", st.Since, st.At, want)
	}
	if st := fold(started, completed); st.LastMessage != "Done." || st.Error != "" {
		t.Errorf("done: %+v", st)
	}
}

func TestParseLineRejectsWhatItCannotUse(t *testing.T) {
	for _, l := range []string{
		``, `not json "task_started"`, tokens,
		`{"timestamp":"yesterday","type":"event_msg","payload":{"type":"task_started"}}`,
		`{"timestamp":"2026-12-01T00:50:09.190Z","type":"event_msg","payload":"task_started"}`,
		strings.Replace(started, `"timestamp":"2026-12-01T00:50:09.190Z",`, ``, 1),
		started[:len(started)/2], // a line cut short
	} {
		if p, ok := ParseLine([]byte(l)); ok {
			t.Errorf("ParseLine(%.60q) = %+v, want nothing", l, p)
		}
	}
}

func TestSessionIDFromName(t *testing.T) {
	cases := map[string]string{
		"/c/sessions/2026/12/01/rollout-2026-12-01T00-50-09-" + sid + ".jsonl":  sid,
		"rollout-2026-12-01T00-50-09-" + sid + ".json":                          "",
		"rollout-" + sid + ".jsonl":                                             sid,
		"rollout-2026-12-01T00-50-09-../../../../etc/passwd-aaaaaaaaaaaa.jsonl": "",
		"notes.jsonl": "",
	}
	for name, want := range cases {
		if got := SessionIDFromName(name); got != want {
			t.Errorf("SessionIDFromName(%q) = %q, want %q", name, got, want)
		}
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func rolloutPath(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "12", "01")
	os.MkdirAll(dir, 0o700)
	return filepath.Join(dir, "rollout-2026-12-01T00-50-09-"+sid+".jsonl")
}

func TestTailReadsOnlyNewBytesAndWaitsForWholeLines(t *testing.T) {
	path := rolloutPath(t)
	appendTo(t, path, meta+"\n"+started[:40])
	tl := NewTail(path)
	read := func() bool {
		t.Helper()
		changed, err := tl.Read()
		if err != nil {
			t.Fatal(err)
		}
		return changed
	}
	if !read() || tl.State.State != session.Idle || tl.ID != sid || tl.State.File != filepath.Base(path) {
		t.Fatalf("first read: %+v id %q", tl.State, tl.ID)
	}
	// The rest of task_started arrives in two writes; nothing changes
	// until its newline.
	appendTo(t, path, started[40:100])
	if read() || tl.State.State != session.Idle {
		t.Fatalf("half a line changed the state: %+v", tl.State)
	}
	appendTo(t, path, started[100:]+"\n"+tokens+"\n")
	if !read() || tl.State.State != session.Working {
		t.Fatalf("whole line: %+v", tl.State)
	}
	if read() {
		t.Fatal("a read with nothing new changed the state")
	}
	appendTo(t, path, completed+"\n")
	if !read() || tl.State.State != session.Done {
		t.Fatalf("complete: %+v", tl.State)
	}
	// A file replaced by a shorter one is read again from its start.
	os.WriteFile(path, []byte(meta+"\n"+started+"\n"), 0o600)
	if !read() || tl.State.State != session.Working {
		t.Fatalf("after the file was replaced: %+v", tl.State)
	}
}

// A huge line (a tool's output, an image) is skipped without being kept:
// memory stays bounded and the lines around it still count.
func TestTailSkipsHugeLines(t *testing.T) {
	path := rolloutPath(t)
	huge := `{"type":"response_item","payload":{"output":"` + strings.Repeat("x", 3*maxLine) + `","note":"task_complete"}}`
	appendTo(t, path, started+"\n")
	tl := NewTail(path)
	tl.Read()
	appendTo(t, path, huge[:maxLine/2])
	tl.Read()
	appendTo(t, path, huge[maxLine/2:])
	tl.Read()
	if tl.lines.Held() > maxLine+chunk {
		t.Fatalf("kept %d bytes of a huge line", tl.lines.Held())
	}
	appendTo(t, path, "\n"+aborted+"\n")
	tl.Read()
	if tl.State.State != session.Idle || tl.State.Source != "rollout:turn_aborted" {
		t.Fatalf("after the huge line: %+v", tl.State)
	}
}

// A new tail of a long file reads its end first; a turn that started far
// before the end is still found.
func TestTailCatchUpFindsAnOldTurn(t *testing.T) {
	path := rolloutPath(t)
	var b bytes.Buffer
	b.WriteString(meta + "\n" + prompt + "\n" + started + "\n")
	filler := `{"timestamp":"2026-12-01T00:50:10.000Z","type":"response_item","payload":{"type":"function_call_output","output":"` + strings.Repeat("y", 1000) + `"}}` + "\n"
	for b.Len() < 3*firstWindow {
		b.WriteString(filler)
	}
	os.WriteFile(path, b.Bytes(), 0o600)
	tl := NewTail(path)
	if _, err := tl.Read(); err != nil {
		t.Fatal(err)
	}
	if tl.State.State != session.Working || tl.State.Cwd != "/Users/dev/proj" {
		t.Fatalf("%+v", tl.State)
	}
	if tl.off != int64(b.Len()) {
		t.Fatalf("offset %d, want the end %d", tl.off, b.Len())
	}
}

// Every recorded run's rollout, replayed line by line as it appeared
// (including the lines the recorder cut short), ends in the state the run
// ended in.
func TestRecordedRollouts(t *testing.T) {
	runs, err := fixture.LoadCodex(fixture.CodexRoot("0.169.0"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]session.State{
		"a-plain": session.Done, "b-approve": session.Done, "d-interrupt": session.Idle,
		"e-ctrlc": session.Done, "f-error500": session.Failed,
	}
	for _, r := range runs {
		path := filepath.Join(t.TempDir(), r.Rollout[0].File)
		tl := NewTail(path)
		var states []string
		for _, l := range r.Rollout {
			appendTo(t, path, l.Line+"\n")
			if changed, err := tl.Read(); err != nil {
				t.Fatal(err)
			} else if changed {
				states = append(states, fmt.Sprintf("%.3f %s", l.Seen, tl.State.State))
			}
		}
		if tl.State.State != want[r.Name] || tl.ID == "" {
			t.Errorf("%s: ended %s (id %q), want %s; changes: %v", r.Name, tl.State.State, tl.ID, want[r.Name], states)
		}
	}
}
