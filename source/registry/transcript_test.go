package registry

import (
	"context"
	"github.com/mew-dev/mew/source"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Lines shaped as Claude Code 2.1.328 wrote them (e2e
// TestNoInstallRegistryOnlyEsc logged each entry's type and content).
const (
	prompt    = `{"type":"user","message":{"role":"user","content":"please mew-e2e-slow"},"uuid":"u1"}`
	toolCall  = `{"type":"assistant","message":{"role":"assistant","content":[{"id":"toolu_1","input":{"command":"touch x"},"name":"Bash","type":"tool_use"}]}}`
	toolRes   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}}`
	reply     = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}`
	sidechain = `{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"Subtask finished."}]}}`
	bookkeep  = `{"type":"last-prompt"}` + "\n" + `{"type":"mode","mode":"normal"}` + "\n" + `{"type":"permission-mode","permissionMode":"default"}`
)

func TestLastTurnStopped(t *testing.T) {
	cases := []struct {
		name           string
		lines          []string
		stopped, known bool
	}{
		{"a finished turn ends with the reply", []string{prompt, reply, bookkeep}, false, true},
		{"a finished tool turn", []string{prompt, toolCall, toolRes, reply, bookkeep}, false, true},
		{"Esc on the tool's prompt: the call never ran", []string{prompt, toolCall, bookkeep}, true, true},
		{"Esc while streaming: only the prompt is kept", []string{reply, prompt, `{"type":"api-request"}`}, true, true},
		{"a subagent's reply is not the turn's", []string{prompt, toolCall, sidechain}, true, true},
		{"a line being written is skipped", []string{prompt, reply, `{"type":"user","mess`}, false, true},
		{"no conversation yet", []string{bookkeep}, false, false},
		{"nothing", nil, false, false},
	}
	for _, c := range cases {
		stopped, known := lastTurnStopped([]byte(strings.Join(c.lines, "\n") + "\n"))
		if stopped != c.stopped || known != c.known {
			t.Errorf("%s: stopped %v known %v, want %v %v", c.name, stopped, known, c.stopped, c.known)
		}
	}
}

func TestTranscriptPath(t *testing.T) {
	if got, want := TranscriptPath("/h/.claude", "/tmp/Test 1/proj", "64d0becb-e011-43ab-b928-271850477fe2"), "/h/.claude/projects/-tmp-Test-1-proj/64d0becb-e011-43ab-b928-271850477fe2.jsonl"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
	for _, bad := range []string{"../../etc/passwd", "a/b", "", "x"} {
		if got := TranscriptPath("/h/.claude", "/p", bad); got != "" {
			t.Errorf("session id %q gave the path %q", bad, got)
		}
	}
	if got := TranscriptPath("/h", "/"+strings.Repeat("a", 300), "64d0becb-e011"); got != "" {
		t.Errorf("a project name over Claude Code's limit: %q", got)
	}
}

// Stopped reads only the tail of a long transcript.
func TestStoppedReadsTheTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	long := strings.Repeat(reply+"\n", 2*transcriptTail/len(reply))
	if err := os.WriteFile(path, []byte(long+prompt+"\n"+toolCall+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if stopped, known := Stopped(path); !stopped || !known {
		t.Errorf("a long transcript whose turn was stopped: %v %v", stopped, known)
	}
	if _, known := Stopped(filepath.Join(t.TempDir(), "none.jsonl")); known {
		t.Error("a missing transcript told something")
	}
}

// The source reads the transcript of a session whose status goes idle.
func TestSourceReadsTheTranscriptOnIdle(t *testing.T) {
	config := t.TempDir()
	dir := filepath.Join(config, "sessions")
	id := "64d0becb-e011-43ab-b928-271850477fe2"
	tr := TranscriptPath(config, "/p/proj", id)
	if err := os.MkdirAll(filepath.Dir(tr), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	doc := `{"pid": 4242, "sessionId": "` + id + `", "cwd": "/p/proj", "status": "idle", "statusUpdatedAt": 1796065507034}`
	if err := os.WriteFile(filepath.Join(dir, "4242.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		transcript  string
		interrupted bool
	}{
		{prompt + "\n" + toolCall + "\n" + bookkeep + "\n", true},
		{prompt + "\n" + reply + "\n", false},
	} {
		if err := os.WriteFile(tr, []byte(c.transcript), 0o600); err != nil {
			t.Fatal(err)
		}
		obs, err := New(dir).Scan(context.Background())
		if err != nil || len(obs) != 1 || obs[0].Registry.Interrupted != c.interrupted {
			t.Errorf("transcript %q: %+v %v, want interrupted %v", c.transcript, obs, err, c.interrupted)
		}
	}
}

func TestWaitingTool(t *testing.T) {
	dir := t.TempDir()
	ask := `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Let me ask."},{"id":"toolu_2","input":{},"name":"AskUserQuestion","type":"tool_use"}]}}`
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{prompt, ask, bookkeep}, "AskUserQuestion"},
		{[]string{prompt, toolCall}, "Bash"},
		{[]string{prompt, reply}, ""},
		{[]string{prompt}, ""},
	} {
		path := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(c.lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := WaitingTool(path); got != c.want {
			t.Errorf("%q: %q, want %q", c.lines, got, c.want)
		}
	}
}

// Claude Code can write its idle status before the turn's last reply
// reaches the transcript: the watching source reads the transcript again
// for a while, and the finished turn is not left "stopped".
func TestWatchReadsALateReplyAgain(t *testing.T) {
	config := t.TempDir()
	dir := filepath.Join(config, "sessions")
	id := "64d0becb-e011-43ab-b928-271850477fe2"
	tr := TranscriptPath(config, "/p/proj", id)
	for _, d := range []string{filepath.Dir(tr), dir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(tr, []byte(prompt+"\n"), 0o600); err != nil { // the reply not written yet
		t.Fatal(err)
	}
	doc := `{"pid": 4242, "sessionId": "` + id + `", "cwd": "/p/proj", "status": "idle", "statusUpdatedAt": 1796065507034}`
	if err := os.WriteFile(filepath.Join(dir, "4242.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	go New(dir).Watch(ctx, out)
	first := <-out
	if len(first) != 1 || !first[0].Registry.Interrupted {
		t.Fatalf("before the reply: %+v, want stopped", first)
	}
	if err := os.WriteFile(tr, []byte(prompt+"\n"+reply+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case obs := <-out:
		if len(obs) != 1 || obs[0].Registry.Interrupted {
			t.Fatalf("after the reply: %+v, want finished", obs)
		}
	case <-time.After(time.Minute): // bound for a loaded machine: the re-read comes in 150 ms
		t.Fatal("the late reply was never read")
	}
}
