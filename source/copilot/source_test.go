package copilot

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Lines as Copilot CLI 1.0.102 writes them (data cut to the fields read;
// the kinds and their order from testdata/fixtures/copilot-1.0.102 and the
// end-to-end runs).
func ev(typ, ts, data string) string {
	if data == "" {
		data = "{}"
	}
	return `{"type":"` + typ + `","data":` + data + `,"id":"x","timestamp":"2026-12-02T05:` + ts + `Z","parentId":null}`
}

var (
	lStart     = ev("session.start", "11:52.767", `{"context":{"cwd":"/home/p/proj"}}`)
	lPrompt    = ev("user.message", "12:05.691", `{"content":"please run it"}`)
	lTurn      = ev("assistant.turn_start", "12:05.736", "")
	lTool      = ev("tool.execution_start", "12:06.000", `{"toolName":"bash"}`)
	lHookStart = ev("hook.start", "12:06.010", `{"hookType":"permissionRequest"}`)
	lAsked     = ev("permission.requested", "12:06.100", `{"permissionRequest":{"kind":"shell"}}`)
	lApproved  = ev("permission.completed", "12:08.000", `{"result":{"kind":"approved"}}`)
	lCancelled = ev("permission.completed", "12:08.000", `{"result":{"kind":"cancelled","reason":"Session aborted"}}`)
	lTurnEnd   = ev("assistant.turn_end", "12:08.010", `{"turnId":"0"}`)
	lReply     = ev("assistant.message", "12:08.005", `{"content":"Done."}`)
	lAbort     = ev("abort", "12:08.020", `{"reason":"user_initiated"}`)
	lAgentStop = ev("hook.start", "12:08.030", `{"hookType":"agentStop"}`)
	lError     = ev("session.error", "12:08.040", `{"errorType":"query","message":"400 fake upstream error 400","statusCode":400}`)
	lShutdown  = ev("session.shutdown", "12:09.000", "")
	// The sessionStart hook's line, first in a session Copilot runs hooks in.
	lSessionHook = ev("hook.start", "11:53.000", `{"hookType":"sessionStart"}`)
)

func fold(lines ...string) session.LogState {
	var st session.LogState
	var f Folder
	for _, l := range lines {
		f.Fold(&st, []byte(l))
	}
	return st
}

func TestFold(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  session.State
	}{
		{"started", []string{lStart}, session.Idle},
		{"prompt", []string{lStart, lPrompt, lTurn}, session.Working},
		// permission.requested says nothing the hooks did not (and the
		// log has no reason): it leaves the state to them.
		{"asked", []string{lStart, lPrompt, lTurn, lTool, lHookStart, lAsked}, session.Working},
		{"approved", []string{lStart, lPrompt, lTool, lAsked, lApproved}, session.Working},
		{"cancelled", []string{lStart, lPrompt, lTool, lAsked, lTurnEnd, lCancelled, lAbort}, session.Idle},
		{"turn ended", []string{lStart, lPrompt, lTurnEnd, lAgentStop}, session.Done},
		{"error", []string{lStart, lPrompt, lTurnEnd, lError}, session.Failed},
		{"next prompt after an error", []string{lPrompt, lError, lPrompt}, session.Working},
		{"shutdown", []string{lStart, lPrompt, lTurnEnd, lShutdown}, session.Exited},
		{"junk", []string{lStart, "{", `{"type":"abort"}`, "[1]", ""}, session.Idle},
		// With hooks, turn_end says nothing: agentStop follows a turn that
		// succeeded, session.error the last retry's failure (after it, as
		// run-cop3 recorded), abort an Esc. Done before failed was wrong.
		{"hooked: the error's turn_end before its session.error", []string{lStart, lSessionHook, lPrompt, lTurn, lTurnEnd}, session.Working},
		{"hooked: the error", []string{lStart, lSessionHook, lPrompt, lTurn, lTurnEnd, lError}, session.Failed},
		{"hooked: turn_end then agentStop", []string{lStart, lSessionHook, lPrompt, lTurn, lTurnEnd, lAgentStop}, session.Done},
		{"hooked: turn_end then abort", []string{lStart, lSessionHook, lPrompt, lTool, lAsked, lCancelled, lTurnEnd, lAbort}, session.Idle},
		{"no hooks: turn_end after a reply is the end", []string{lStart, lPrompt, lTurn, lReply, lTurnEnd}, session.Done},
		{"no hooks: a tool's round, then the reply's", []string{lStart, lPrompt, lTurn, lReply, lTool, lAsked, lApproved, lTurnEnd, lTurn, lReply, lTurnEnd}, session.Done},
		// Without hooks too, the last retry's turn_end comes before its
		// session.error; that round has no reply: done then was wrong.
		{"no hooks: a round with no reply says nothing", []string{lStart, lPrompt, lTurn, lTurnEnd}, session.Working},
		{"no hooks: the error after it", []string{lStart, lPrompt, lTurn, lTurnEnd, lError}, session.Failed},
		{"no hooks: a reply in an earlier round is not this one's", []string{lStart, lPrompt, lTurn, lReply, lTool, lTurnEnd, lTurn, lTurnEnd}, session.Working},
		// Esc on the dialog: the refused call's turn_end comes before the
		// abort (same millisecond in run-cop3): idle, never done.
		{"no hooks: a refused call's turn_end", []string{lStart, lPrompt, lTurn, lReply, lTool, lAsked, lCancelled, lTurnEnd}, session.Idle},
		{"no hooks: then the abort", []string{lStart, lPrompt, lTurn, lReply, lTool, lAsked, lCancelled, lTurnEnd, lAbort}, session.Idle},
	}
	for _, c := range cases {
		if got := fold(c.lines...); got.State != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got.State, got.Source, c.want)
		}
	}
	st := fold(lStart, lPrompt, lHookStart)
	if st.Cwd != "/home/p/proj" || st.Title != "please run it" || st.Source != "events:user.message" {
		t.Errorf("cwd %q title %q source %q", st.Cwd, st.Title, st.Source)
	}
	// A line that does not decide never moves At: a newer hook event keeps
	// its say over an older log line.
	if want, _ := time.Parse(time.RFC3339, "2026-12-02T05:12:05.691Z"); !st.At.Equal(want) {
		t.Errorf("At %v, want the prompt's %v", st.At, want)
	}
	if fold(lPrompt, lTurnEnd).Final || !fold(lPrompt, lTurnEnd, lAgentStop).Final || fold(lPrompt, lTurnEnd, lAgentStop, lPrompt).Final {
		t.Error("only agentStop's done is final, until the next line that decides")
	}
	if st := fold(lPrompt, lError); st.Error != "400 fake upstream error 400" {
		t.Errorf("error %q", st.Error)
	}
	if st := fold(lPrompt, ev("session.error", "12:09.000", `{"message":"\u001b]0;evil\u0007 x\ny"}`)); strings.ContainsAny(st.Error, "\x1b\x07\n") {
		t.Errorf("a hostile message reaches the record: %q", st.Error)
	}
}

// home is a COPILOT_HOME with one session whose lock names pid.
func home(t *testing.T, id string, pid int, lines ...string) (string, string) {
	t.Helper()
	h := t.TempDir()
	dir := filepath.Join(h, "session-state", id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "inuse."+strconv.Itoa(pid)+".lock"), nil, 0o600)
	log := filepath.Join(dir, "events.jsonl")
	os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	return h, log
}

// table is a process table of one Copilot process.
type table map[int]proctree.Proc

func (t table) Get(pid int) (proctree.Proc, error) {
	if p, ok := t[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

const id = "0e754f26-f760-4b7c-b85a-e6ac7992ff46"

func testSource(h string, pid int, args ...string) *Source {
	if len(args) == 0 {
		args = []string{"/opt/npm/node_modules/@github/copilot-linux-x64/copilot", "--model", "gpt-4.1"}
	}
	return &Source{Home: h,
		Procs: table{pid: {Pid: pid, PPid: 100, Name: "MainThread", StartMs: 1_800_000_000_000},
			100: {Pid: 100, PPid: 50, Name: "node"}, 50: {Pid: 50, PPid: 1, Name: "bash"}},
		Cmdline: func(p int) ([]string, error) { return args, nil },
		Tty:     func(int) (string, error) { return "/dev/pts/7", nil },
	}
}

func TestScanFollowsOpenSessions(t *testing.T) {
	h, log := home(t, id, 4242, lStart, lPrompt, lTurn)
	s := testSource(h, 4242)
	obs, err := s.Scan(context.Background())
	if err != nil || len(obs) != 1 {
		t.Fatalf("%+v %v", obs, err)
	}
	o := obs[0]
	if o.ID != id || o.Agent != session.AgentCopilot || o.Process.Pid != 4242 || o.Process.StartMs == 0 || o.Log.State != session.Working {
		t.Fatalf("%+v log %+v", o, o.Log)
	}
	// Its launcher and shell, for the pane's screen to join it.
	if a := o.Process.Ancestors; len(a) != 2 || a[0].Pid != 100 || a[1].Name != "bash" || o.Process.Tty != "/dev/pts/7" {
		t.Fatalf("process %+v", o.Process)
	}
	// Only what is appended is read; a half-written line waits for its end.
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lReply + "\n" + lTurnEnd + "\n" + lAgentStop[:20])
	obs, _ = s.Scan(context.Background())
	if obs[0].Log.State != session.Done || obs[0].Log.Source != "events:assistant.turn_end" {
		t.Fatalf("after turn_end and half a line: %+v", obs[0].Log)
	}
	f.WriteString(lAgentStop[20:] + "\n" + strings.Repeat("x", maxLine+10) + "\n" + lError + "\n")
	f.Close()
	obs, _ = s.Scan(context.Background())
	if obs[0].Log.State != session.Failed {
		t.Fatalf("after a huge line and session.error: %+v", obs[0].Log)
	}

	// A lock whose pid is not Copilot's (reused), or gone: not open.
	if obs, _ := testSource(h, 4242, "/usr/bin/vim").Scan(context.Background()); len(obs) != 0 {
		t.Errorf("a pid reused by vim: %+v", obs)
	}
	if obs, _ := testSource(h, 999).Scan(context.Background()); len(obs) != 0 {
		t.Errorf("the lock's process is gone: %+v", obs)
	}
}

func TestScanSkipsWhatIsNotASession(t *testing.T) {
	h, _ := home(t, id, 4242, lStart)
	bad := filepath.Join(h, "session-state", "..evil name")
	os.MkdirAll(bad, 0o700)
	os.WriteFile(filepath.Join(bad, "events.jsonl"), []byte(lStart+"\n"), 0o600)
	os.WriteFile(filepath.Join(bad, "inuse.4242.lock"), nil, 0o600)
	os.WriteFile(filepath.Join(h, "session-state", id, "inuse.4242x.lock"), nil, 0o600)
	obs, _ := testSource(h, 4242).Scan(context.Background())
	if len(obs) != 1 || obs[0].ID != id {
		t.Fatalf("%+v", obs)
	}
	// A big log is read from its end.
	h2, log := home(t, id, 7, lStart)
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	for i := 0; i < 4000; i++ {
		f.WriteString(ev("assistant.message", "12:00.000", `{"content":"`+strings.Repeat("y", 100)+`"}`) + "\n")
	}
	f.WriteString(lPrompt + "\n")
	f.Close()
	s := testSource(h2, 7)
	obs, _ = s.Scan(context.Background())
	if len(obs) != 1 || obs[0].Log.State != session.Working {
		t.Fatalf("%+v", obs)
	}
	if s.tails[filepath.Dir(log)].off < firstWindow {
		t.Fatal("the whole file was read")
	}
}

func TestWatchSendsOnAppend(t *testing.T) {
	h, log := home(t, id, 4242, lStart, lPrompt)
	s := testSource(h, 4242)
	s.Poll = time.Hour // only fsnotify
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 4)
	go s.Watch(ctx, out)
	first := <-out
	if len(first) != 1 || first[0].Log.State != session.Working {
		t.Fatalf("first: %+v", first)
	}
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lAsked + "\n" + lCancelled + "\n" + lAbort + "\n")
	f.Close()
	select {
	case obs := <-out:
		if len(obs) != 1 || obs[0].Log.State != session.Idle {
			t.Fatalf("after cancel: %+v", obs)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no observation after the log grew")
	}
}
