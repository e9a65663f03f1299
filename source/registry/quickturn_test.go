package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/source"
)

// A turn of 0.1–0.4 s can leave Claude Code 2.1.328's registry file as it
// was: idle before, idle after, nothing rewritten (e2e
// TestNoInstallShortTurnsDone saw it in about 1 turn of 3). Its
// transcript still gets the prompt and the reply, each with its time.
const (
	idleAt    = "2026-12-07T21:39:10.000Z" // the registry's idle
	stampedQ  = `{"type":"user","message":{"role":"user","content":"t0 please mew-e2e-text"},"timestamp":"2026-12-07T21:39:11.119Z"}`
	stampedA  = `{"type":"assistant","message":{"role":"assistant","content":[{"text":"Hello from the scripted model.","type":"text"}],"stop_reason":"end_turn"},"timestamp":"2026-12-07T21:39:11.205Z"}`
	oldReply  = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]},"timestamp":"2026-12-06T08:00:00.000Z"}`
	apiErrRep = `{"type":"assistant","isApiErrorMessage":true,"message":{"role":"assistant","content":[{"type":"text","text":"API Error: 400 invalid"}]},"timestamp":"2026-12-07T21:39:11.205Z"}`
)

func stamp(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The reply that ends a transcript, and when: none for a turn that was
// stopped, nor for an API error Claude Code wrote as the model's message.
func TestLastReplyTime(t *testing.T) {
	replied := stamp(t, "2026-12-07T21:39:11.205Z")
	for _, c := range []struct {
		name  string
		lines []string
		want  time.Time
	}{
		{"a finished turn", []string{stampedQ, stampedA, bookkeep}, replied},
		{"stopped: the prompt is last", []string{stampedA, stampedQ}, time.Time{}},
		{"a tool call that never ran", []string{stampedQ, toolCall}, time.Time{}},
		{"an API error is no finished reply", []string{stampedQ, apiErrRep}, time.Time{}},
		{"a reply with no time", []string{prompt, reply}, time.Time{}},
		{"a bad time is no time, the verdict stands", []string{prompt, strings.Replace(stampedA, "2026-12-07T21:39:11.205Z", "yesterday", 1)}, time.Time{}},
	} {
		v := verdictOf([]byte(strings.Join(c.lines, "\n") + "\n"))
		if !v.replied.Equal(c.want) {
			t.Errorf("%s: replied %v, want %v", c.name, v.replied, c.want)
		}
	}
	if v := verdictOf([]byte(prompt + "\n" + strings.Replace(stampedA, "2026-12-07T21:39:11.205Z", "yesterday", 1) + "\n")); v.stopped || !v.known {
		t.Errorf("a reply with a bad time is still a finished turn: %+v", v)
	}
}

// An idle status whose transcript got a finished reply after it was set:
// a turn ran that the registry never said busy for. A resumed session's
// old replies, or a stopped turn, are no such turn.
func TestObserveATurnOnlyTheTranscriptSaw(t *testing.T) {
	t0 := time.UnixMilli(1_000_000).UTC()
	fresh := Observe(nil, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t0}, "9.json", t0)
	quick := Observe(&fresh, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t0, RepliedAt: t0.Add(2 * time.Second)}, "9.json", t0.Add(3*time.Second))
	if !quick.TurnSeen || !quick.LastTurnAt.Equal(t0.Add(2*time.Second)) || !quick.At.Equal(t0) {
		t.Fatalf("a reply after the idle: %+v", quick)
	}
	resumed := Observe(nil, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t0, RepliedAt: t0.Add(-time.Hour)}, "9.json", t0)
	if resumed.TurnSeen {
		t.Errorf("a resumed session's old reply: %+v", resumed)
	}
	stopped := Observe(&fresh, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t0, RepliedAt: t0.Add(time.Second), Interrupted: true}, "9.json", t0)
	if stopped.TurnSeen {
		t.Errorf("a stopped turn: %+v", stopped)
	}
	// A turn the registry did see: busy's time stays the turn's, unless the
	// reply came after the idle (written late to the transcript).
	busy := Observe(&fresh, Doc{SessionID: "s", Pid: 9, Status: "busy", StatusAt: t0.Add(10 * time.Second)}, "9.json", t0)
	idle := Observe(&busy, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t0.Add(11 * time.Second), RepliedAt: t0.Add(10500 * time.Millisecond)}, "9.json", t0)
	if !idle.TurnSeen || !idle.LastTurnAt.Equal(t0.Add(10*time.Second)) {
		t.Errorf("a seen turn: %+v", idle)
	}
}

// The watching source sees such a turn although the registry file is not
// rewritten: it follows the transcript of an idle session, from before
// Claude Code made its project folder (the first prompt makes it).
func TestWatchSeesATurnTheRegistryNeverReported(t *testing.T) {
	config := t.TempDir()
	dir := filepath.Join(config, "sessions")
	id := "64d0becb-e011-43ab-b928-271850477fe2"
	tr := TranscriptPath(config, "/p/proj", id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	doc := fmt.Sprintf(`{"pid": 4242, "sessionId": %q, "cwd": "/p/proj", "status": "idle", "statusUpdatedAt": %d}`, id, stamp(t, idleAt).UnixMilli())
	if err := os.WriteFile(filepath.Join(dir, "4242.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	go New(dir).Watch(ctx, out)
	if first := <-out; len(first) != 1 || !first[0].Registry.LastTurnAt.IsZero() {
		t.Fatalf("before the turn: %+v", first)
	}
	if err := os.MkdirAll(filepath.Dir(tr), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(tr, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range []string{stampedQ, stampedA, bookkeep} {
		f.WriteString(l + "\n")
	}
	want := stamp(t, "2026-12-07T21:39:11.205Z")
	timeout := time.After(time.Minute) // bound for a loaded machine: the event comes at once
	for {
		select {
		case obs := <-out:
			if len(obs) == 1 && obs[0].Registry.LastTurnAt.Equal(want) {
				return
			}
		case <-timeout:
			t.Fatal("the turn in the transcript was never read")
		}
	}
}

// A session resumed in a new process (`claude --resume`) starts with no
// turn seen: the turns Mew saw in the process before are not its (it
// showed done, from the last of them, until a turn ran: e2e
// TestNoInstallResumedNotDone).
func TestObserveResumedStartsWithNoTurn(t *testing.T) {
	t0 := time.UnixMilli(1_000_000).UTC()
	busy := Observe(nil, Doc{SessionID: "s", Pid: 9, ProcStart: "100", Status: "busy", StatusAt: t0}, "9.json", t0)
	idle := Observe(&busy, Doc{SessionID: "s", Pid: 9, ProcStart: "100", Status: "idle", StatusAt: t0.Add(time.Second), RepliedAt: t0.Add(900 * time.Millisecond)}, "9.json", t0)
	gone := Vanish(idle, t0.Add(2*time.Second))
	resumed := Observe(&gone, Doc{SessionID: "s", Pid: 12, ProcStart: "300", Status: "idle", StatusAt: t0.Add(5 * time.Second), RepliedAt: t0.Add(900 * time.Millisecond)}, "12.json", t0)
	if !idle.TurnSeen || resumed.TurnSeen || !resumed.LastTurnAt.IsZero() {
		t.Fatalf("first process %+v; resumed %+v", idle, resumed)
	}
	again := Observe(&resumed, Doc{SessionID: "s", Pid: 12, ProcStart: "300", Status: "busy", StatusAt: t0.Add(6 * time.Second)}, "12.json", t0)
	if !again.TurnSeen {
		t.Errorf("a turn in the resumed process: %+v", again)
	}
}

// The next turn's prompt reaches the transcript before the registry's
// busy: the idle session it follows does not read stopped meanwhile (a
// flicker to idle at every turn's start), only a new reply changes it.
func TestTranscriptPromptAloneChangesNothing(t *testing.T) {
	config := t.TempDir()
	d := newDirState(filepath.Join(config, "sessions"))
	id := "64d0becb-e011-43ab-b928-271850477fe2"
	tr := TranscriptPath(config, "/p/proj", id)
	if err := os.MkdirAll(filepath.Dir(tr), 0o700); err != nil {
		t.Fatal(err)
	}
	d.docs["42.json"] = Entry{File: "42.json", Doc: Doc{SessionID: id, Pid: 42, Cwd: "/p/proj", Status: "idle", StatusAt: stamp(t, idleAt)}}
	write := func(lines ...string) {
		if err := os.WriteFile(tr, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(stampedQ, stampedA)
	if !d.transcriptChanged(tr) || d.docs["42.json"].Doc.RepliedAt.IsZero() {
		t.Fatalf("a reply: %+v", d.docs["42.json"].Doc)
	}
	write(stampedQ, stampedA, strings.Replace(stampedQ, "t0", "t1", 1))
	if d.transcriptChanged(tr) || d.docs["42.json"].Doc.Interrupted {
		t.Errorf("the next prompt alone: %+v", d.docs["42.json"].Doc)
	}
	if d.transcriptChanged(filepath.Join(filepath.Dir(tr), "other.jsonl")) {
		t.Error("another session's transcript")
	}
}
