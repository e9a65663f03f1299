package hookbin_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

func hookBinary(t testing.TB) string {
	t.Helper()
	bin, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

type hookRun struct {
	exit     int
	stdout   string
	stderr   string
	duration time.Duration
}

// runHook runs the real binary the way Claude Code runs the command `mew
// install` registers: through `sh -c`, with RunEnv, payload on stdin.
func runHook(t testing.TB, bin, home string, stdin []byte, env ...string) hookRun {
	t.Helper()
	return runHookCommand(t, hookbin.RunEnv+` "$0"`, bin, home, bytes.NewReader(stdin), env...)
}

// Both command lines: as installed, and the bare binary (an older install,
// or someone running it by hand) must behave the same.
var commandLines = map[string]string{"installed": hookbin.RunEnv + ` "$0"`, "bare": `"$0"`}

func runHookCommand(t testing.TB, cmdline, bin, home string, stdin io.Reader, env ...string) hookRun {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", cmdline, bin)
	cmd.Stdin = stdin
	cmd.Env = append(append(os.Environ(), "MEW_HOME="+home), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := hookRun{stdout: out.String(), stderr: errb.String(), duration: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNeverInterferes(t *testing.T) {
	bin := hookBinary(t)
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, nil, 0o600)
	huge := bytes.Repeat([]byte("x"), 9<<20)
	cases := []struct {
		name    string
		home    string
		payload []byte
		stored  bool // whether a session file should appear
		logged  string
	}{
		{"empty", "", nil, false, "not a hook event"},
		{"not JSON", "", []byte("hello\x00\xff"), false, "not a hook event"},
		{"escape codes in a broken payload", "", []byte("{\"session_id\":\"s\",\"cwd\":\"\x1b]0;pwned\x07\u009b2J\u202e"), false, "not a hook event"},
		{"JSON but not an object", "", []byte(`[1,2,3]`), false, "not a hook event"},
		{"no session id", "", []byte(`{"hook_event_name":"Stop"}`), false, "no valid session_id"},
		{"path in the session id", "", []byte(`{"session_id":"../../x","hook_event_name":"Stop"}`), false, "not a plain safe name"},
		{"huge", "", huge, false, "over the"},
		{"unknown event", "", []byte(`{"session_id":"u1","hook_event_name":"SomethingNew"}`), true, ""},
		{"normal event", "", []byte(`{"session_id":"u2","hook_event_name":"Stop"}`), true, ""},
		{"one field of an unexpected type", "", []byte(`{"session_id":"u4","hook_event_name":"Stop","cwd":["x"]}`), true, "session=u4 Stop: left out field(s) of an unexpected type: cwd"},
		{"unwritable state dir", filepath.Join(notADir, "mew"), []byte(`{"session_id":"u3","hook_event_name":"Stop"}`), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := c.home
			if home == "" {
				home = t.TempDir()
			}
			r := runHook(t, bin, home, c.payload)
			// Where nothing can be written, the loss is said on stderr
			// (exit 0 all the same): the one place left.
			wantErr := c.home != ""
			if r.exit != 0 || r.stdout != "" || (r.stderr != "") != wantErr || wantErr && !strings.Contains(r.stderr, "dropped Stop") {
				t.Fatalf("exit %d stdout %q stderr %q", r.exit, r.stdout, r.stderr)
			}
			if r.duration > hookbin.Deadline {
				t.Fatalf("took %v", r.duration)
			}
			entries, _ := filepath.Glob(filepath.Join(home, "sessions", "*.json"))
			if (len(entries) == 1) != c.stored {
				t.Fatalf("session files: %v, want stored=%v", entries, c.stored)
			}
			if c.logged != "" {
				log, _ := os.ReadFile(filepath.Join(home, "mew-hook.log"))
				if !strings.Contains(string(log), c.logged) {
					t.Fatalf("log %q lacks %q", log, c.logged)
				}
				if i := bytes.IndexFunc(log, func(r rune) bool { return r != '\n' && (r < 0x20 || (r >= 0x7f && r < 0xa0) || r == '\u202e') }); i >= 0 {
					t.Fatalf("log holds a control character at %d: %q", i, log)
				}
			}
		})
	}
}

// A session lock held forever (a stuck writer) costs the hook nothing: it
// spools the event and exits; readers see the event at once, and the
// first writer to get the lock folds it into the record for good.
func TestLockHeldForeverSpoolsTheEvent(t *testing.T) {
	bin := hookBinary(t)
	for name, cmdline := range commandLines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, "sessions"), 0o700)
			held := flock.New(filepath.Join(home, "sessions", "stuck.json.lock"))
			if err := held.Lock(); err != nil {
				t.Fatal(err)
			}
			payload := strings.NewReader(`{"session_id":"stuck","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1"}`)
			r := runHookCommand(t, cmdline, bin, home, payload)
			if r.exit != 0 || r.stdout != "" || r.stderr != "" {
				held.Unlock()
				t.Fatalf("exit %d stdout %q stderr %q", r.exit, r.stdout, r.stderr)
			}
			// The hook is gone and the lock still held: it did not wait.
			log, _ := os.ReadFile(filepath.Join(home, "mew-hook.log"))
			if strings.Contains(string(log), "dropped") {
				t.Errorf("log = %q", log)
			}
			st := store.Store{Home: home, Fold: hookbin.Fold}
			if _, err := os.Stat(filepath.Join(home, "sessions", "stuck.json")); err == nil {
				t.Error("the record was written without the lock")
			}
			rec, err := st.Load("stuck")
			if err != nil || rec.Hook == nil || rec.Hook.EventCount != 1 || len(rec.Hook.Pending) != 1 {
				t.Fatalf("a reader does not see the spooled event: %+v %v", rec.Hook, err)
			}
			held.Unlock()
			if _, err := st.Update("stuck", time.Second, func(*session.Record, bool) bool { return false }); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(filepath.Join(home, "sessions", "stuck.json.spool")); len(left) > 0 {
				t.Errorf("still spooled after a writer had the lock: %v", left)
			}
			if rec, err := st.Load("stuck"); err != nil || rec.Hook == nil || rec.Hook.EventCount != 1 {
				t.Fatalf("the record after the fold: %+v %v", rec.Hook, err)
			}
		})
	}
}

// A payload whose writer never closes stdin cannot hold the agent: the hook
// exits 0 at its deadline.
func TestStdinNeverClosedIsBounded(t *testing.T) {
	bin := hookBinary(t)
	for name, cmdline := range commandLines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			pw.Write([]byte(`{"session_id":"open","hook_event_name":"Stop"`))
			r := runHookCommand(t, cmdline, bin, home, pr)
			pr.Close()
			if r.exit != 0 || r.stdout != "" || r.stderr != "" {
				t.Fatalf("exit %d stdout %q stderr %q", r.exit, r.stdout, r.stderr)
			}
			if limit := time.Duration(install.Timeout) * time.Second; r.duration < hookbin.Deadline || r.duration >= limit {
				t.Fatalf("took %v; want the deadline %v, under %v", r.duration, hookbin.Deadline, limit)
			}
			if _, err := os.Stat(filepath.Join(home, "sessions", "open.json")); err == nil {
				t.Fatal("an unfinished payload was recorded")
			}
			log, _ := os.ReadFile(filepath.Join(home, "mew-hook.log"))
			if !strings.Contains(string(log), "session=- dropped an event: its payload did not arrive in full") {
				t.Fatalf("log = %q", log)
			}
		})
	}
}

// A hook held up for 4.5 s (a loaded machine, a paused process) before its
// payload arrives still records it.
func TestLatePayloadIsRecorded(t *testing.T) {
	t.Parallel()
	bin := hookBinary(t)
	home := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(4500 * time.Millisecond)
		pw.Write([]byte(`{"session_id":"late","hook_event_name":"Stop"}`))
		pw.Close()
	}()
	r := runHookCommand(t, hookbin.RunEnv+` "$0"`, bin, home, pr)
	pr.Close()
	if r.exit != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q", r.exit, r.stdout, r.stderr)
	}
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("late")
	if err != nil || rec.Hook == nil || rec.Hook.EventCount != 1 {
		t.Fatalf("the late event was not recorded: %+v %v", rec, err)
	}
}

// A session's lock file that is a FIFO nobody writes (it once held every
// hook of the session until the deadline, and dropped its event) no longer
// holds the hook: the lock is taken on it at once and the event recorded.
// What the deadline logs of an event it cuts off is TestDeadlineSaysDroppedOnlyOfWhatWasDropped.
func TestFIFOLockFileDoesNotHoldTheHook(t *testing.T) {
	t.Parallel()
	bin := hookBinary(t)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "sessions"), 0o700)
	if err := syscall.Mkfifo(filepath.Join(home, "sessions", "hung.json.lock"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runHook(t, bin, home, []byte(`{"session_id":"hung","hook_event_name":"PreToolUse","tool_name":"Bash"}`))
	if r.exit != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q", r.exit, r.stdout, r.stderr)
	}
	if r.duration >= hookbin.Deadline {
		t.Fatalf("took %v: held until the deadline", r.duration)
	}
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("hung")
	if err != nil || rec.Hook == nil || rec.Hook.EventCount != 1 {
		t.Fatalf("the event was not recorded: %+v %v", rec, err)
	}
}

func TestSessionStartRecordsTheAgent(t *testing.T) {
	bin := hookBinary(t)
	home := t.TempDir()
	r := runHook(t, bin, home, []byte(`{"session_id":"ss1","hook_event_name":"SessionStart","source":"startup","cwd":"/p/proj"}`),
		"TERM_PROGRAM=iTerm.app", "ITERM_SESSION_ID=w0t1p0:ABCD-1234", "TMUX=/tmp/tmux-501/default,4242,0", "TMUX_PANE=%7",
		"KITTY_WINDOW_ID=bad\nvalue", "VSCODE_IPC_HOOK_CLI=/tmp/vscode-ipc.sock", "UNRELATED_SECRET=x")
	if r.exit != 0 || r.stdout != "" {
		t.Fatalf("%+v", r)
	}
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("ss1")
	if err != nil {
		t.Fatal(err)
	}
	p := rec.Process
	// The hook ran under sh -c under this test: the agent is this process.
	self, _ := proctree.Lean{}.Get(os.Getpid())
	if p == nil || p.Pid != os.Getpid() || p.StartMs != self.StartMs {
		t.Fatalf("agent = %+v, want pid %d start %d", p, os.Getpid(), self.StartMs)
	}
	if p.Env["TERM_PROGRAM"] != "iTerm.app" || p.Env["ITERM_SESSION_ID"] != "w0t1p0:ABCD-1234" || p.Env["VSCODE_IPC_HOOK_CLI"] == "" {
		t.Fatalf("env = %v", p.Env)
	}
	if _, ok := p.Env["KITTY_WINDOW_ID"]; ok {
		t.Fatal("a value with a newline was kept")
	}
	if _, ok := p.Env["UNRELATED_SECRET"]; ok {
		t.Fatal("an unlisted variable was recorded")
	}
	if p.Tmux == nil || p.Tmux.Socket != "/tmp/tmux-501/default" || p.Tmux.Pane != "%7" || p.Tmux.ServerPid != 4242 {
		t.Fatalf("tmux = %+v", p.Tmux)
	}
	if len(p.Ancestors) == 0 || p.HookPid == 0 {
		t.Fatalf("ancestors = %v hook pid %d", p.Ancestors, p.HookPid)
	}
	if rec.Hook.State != session.Idle || rec.Hook.Cwd != "/p/proj" {
		t.Fatalf("hook = %+v", rec.Hook)
	}
	// Other events don't touch the process record.
	runHook(t, bin, home, []byte(`{"session_id":"ss1","hook_event_name":"UserPromptSubmit","prompt":"hi"}`))
	rec2, _ := store.Store{Home: home, Fold: hookbin.Fold}.Load("ss1")
	if rec2.Process.Pid != p.Pid || rec2.Hook.State != session.Working {
		t.Fatalf("after prompt: %+v", rec2)
	}
}

func TestLogIsCapped(t *testing.T) {
	bin := hookBinary(t)
	home := t.TempDir()
	logPath := filepath.Join(home, "mew-hook.log")
	os.WriteFile(logPath, bytes.Repeat([]byte("old line\n"), hookbin.MaxLogSize/9+1), 0o600)
	runHook(t, bin, home, []byte("garbage"))
	fi, err := os.Stat(logPath)
	if err != nil || fi.Size() > 1024 {
		t.Fatalf("log not rotated: %v %v", fi, err)
	}
	if old, err := os.Stat(logPath + ".1"); err != nil || old.Size() < hookbin.MaxLogSize {
		t.Fatalf("previous log not kept as .1: %v", err)
	}
}

// TestConcurrentHooks is the stress case: 200 SubagentStart hook
// processes at once, then a Stop, then 200 SubagentStop at once, all on one
// session. Every update must land: the session ends done with no subagent.
func TestConcurrentHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 400 processes")
	}
	bin := hookBinary(t)
	home := t.TempDir()
	st := store.Store{Home: home, Fold: hookbin.Fold}
	burst := func(event string) {
		var wg sync.WaitGroup
		errs := make(chan string, 200)
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				payload := fmt.Sprintf(`{"session_id":"busy-1","hook_event_name":%q,"agent_id":"agent-%03d"}`, event, i)
				cmd := exec.Command(bin)
				cmd.Stdin = strings.NewReader(payload)
				cmd.Env = append(os.Environ(), "MEW_HOME="+home)
				if i%2 == 0 {
					cmd.Env = append(cmd.Env, hookbin.RunEnv) // as installed; the others bare
				}
				out, err := cmd.CombinedOutput()
				if err != nil || len(out) > 0 {
					errs <- fmt.Sprintf("%v %q", err, out)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
	runHook(t, bin, home, []byte(`{"session_id":"busy-1","hook_event_name":"UserPromptSubmit","prompt":"go"}`))
	burst("SubagentStart")
	rec, _ := st.Load("busy-1")
	if len(rec.Hook.Subagents) != 200 {
		t.Fatalf("after 200 SubagentStart: %d subagents (lost updates)", len(rec.Hook.Subagents))
	}
	runHook(t, bin, home, []byte(`{"session_id":"busy-1","hook_event_name":"Stop"}`))
	if rec, _ = st.Load("busy-1"); rec.Hook.State != session.Working {
		t.Fatalf("Stop with subagents running: %s", rec.Hook.State)
	}
	burst("SubagentStop")
	rec, err := st.Load("busy-1")
	if err != nil {
		t.Fatal(err)
	}
	// The last one hands back (Claude Code starts a turn by itself): held
	// working, done once the hold is over (monitor/combine).
	if rec.Hook.State != session.Working || !rec.Hook.StopSeen || rec.Hook.HandBack.IsZero() || len(rec.Hook.Subagents) != 0 || rec.Hook.EventCount != 402 {
		t.Fatalf("state %s (stop seen %v, hand-back %v), %d subagents, %d events; want working held for the hand-back, 0, 402",
			rec.Hook.State, rec.Hook.StopSeen, rec.Hook.HandBack, len(rec.Hook.Subagents), rec.Hook.EventCount)
	}
	if log, _ := os.ReadFile(filepath.Join(home, "mew-hook.log")); len(log) > 0 {
		t.Fatalf("hook log: %s", log)
	}
}

// Codex's command line names the agent (`mew-hook --agent=codex`): the
// session is recorded as Codex's, Codex's own event names are renamed to
// the canonical ones, and an argument the hook does not know drops the
// event (logged) instead of recording it as the wrong agent.
func TestAgentArgument(t *testing.T) {
	bin := hookBinary(t)
	home := t.TempDir()
	run := func(arg, payload string) hookRun {
		return runHookCommand(t, hookbin.RunEnv+` "$0" `+arg, bin, home, strings.NewReader(payload))
	}
	for _, p := range []string{
		`{"session_id":"cx1","hook_event_name":"UserPromptSubmit","prompt":"please","cwd":"/p/proj"}`,
		`{"session_id":"cx1","hook_event_name":"Interrupt"}`,
	} {
		if r := run("--agent=codex", p); r.exit != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("%+v", r)
		}
	}
	rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("cx1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Agent != session.AgentCodex || rec.Hook.State != session.Idle || rec.Hook.Source != "hook:Interrupted" {
		t.Fatalf("agent %q, hook %s from %s; want codex, idle from hook:Interrupted", rec.Agent, rec.Hook.State, rec.Hook.Source)
	}
	for _, arg := range []string{"--agent=vim", "--verbose"} {
		if r := run(arg, `{"session_id":"cx2","hook_event_name":"Stop"}`); r.exit != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("%s: %+v", arg, r)
		}
		if _, err := (store.Store{Home: home, Fold: hookbin.Fold}).Load("cx2"); err == nil {
			t.Fatalf("%s: the event was recorded", arg)
		}
		log, _ := os.ReadFile(filepath.Join(home, "mew-hook.log"))
		if !strings.Contains(string(log), "unknown argument \""+arg+"\"") {
			t.Fatalf("%s: log %q", arg, log)
		}
	}
	// Claude Code's command has no argument: Claude's session.
	if r := run("", `{"session_id":"cl1","hook_event_name":"Stop"}`); r.exit != 0 {
		t.Fatalf("%+v", r)
	}
	if rec, _ := (store.Store{Home: home, Fold: hookbin.Fold}).Load("cl1"); rec.Agent != session.AgentClaude {
		t.Fatalf("no argument: agent %q", rec.Agent)
	}
}

func TestParseCommandLine(t *testing.T) {
	cases := []struct {
		args       []string
		agent, bad string
	}{
		{nil, session.AgentClaude, ""},
		{[]string{"--agent=codex"}, session.AgentCodex, ""},
		{[]string{"--agent=gemini"}, session.AgentGemini, ""},
		{[]string{"--agent="}, session.AgentClaude, "--agent="},
		{[]string{"--agent", "codex"}, session.AgentClaude, "--agent"},
		{[]string{"--agent=codex", "x"}, session.AgentCodex, "x"},
		{[]string{"--agent=copilot", "--event=agentStop"}, session.AgentCopilot, ""},
		{[]string{"--agent=copilot", "--event=a b"}, session.AgentCopilot, "--event=a b"},
		{[]string{"--agent=copilot", "--event="}, session.AgentCopilot, "--event="},
	}
	for _, c := range cases {
		agent, _, bad := hookbin.ParseCommandLine(c.args)
		if agent != c.agent || bad != c.bad {
			t.Errorf("ParseCommandLine(%q) = %q, %q; want %q, %q", c.args, agent, bad, c.agent, c.bad)
		}
	}
	if _, ev, _ := hookbin.ParseCommandLine([]string{"--event=agentStop", "--agent=copilot"}); ev != "agentStop" {
		t.Errorf("ParseCommandLine: event %q, want agentStop", ev)
	}
}
