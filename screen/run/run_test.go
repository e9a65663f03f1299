//go:build linux

package run

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// syncBuffer is the person's terminal for a wrapper without one: what the
// relay writes, read by the test once Run returned.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// runIn runs argv under the wrapper with no terminal of the person's (the
// relay, the screen and the store all the same), in a store of its own.
func runIn(t *testing.T, home string, argv ...string) (code int, out []byte) {
	t.Helper()
	var stdout syncBuffer
	st := store.Store{Home: home}
	code, err := Run(Options{
		Argv: argv, Stdout: &stdout, Stderr: &stdout,
		Env:   append(os.Environ(), "TERM=xterm-256color"),
		Store: st, Rules: rules.Cached(rules.Dir(home)),
		Log: func(format string, args ...any) { t.Logf("wrapper: "+format, args...) },
	})
	if err != nil {
		t.Errorf("Run %q: %v", argv, err) // Errorf: also called off the test's goroutine
	}
	return code, stdout.Bytes()
}

func TestRunPassesTheExitCodeThrough(t *testing.T) {
	home := t.TempDir()
	for script, want := range map[string]int{
		"exit 0":        0,
		"exit 7":        7,
		"kill -TERM $$": 128 + 15, // ended by a signal, as a shell reports it
	} {
		if code, _ := runIn(t, home, "sh", "-c", script); code != want {
			t.Errorf("%q: exit %d, want %d", script, code, want)
		}
	}
}

func TestRunRefusesWhatItCannotStart(t *testing.T) {
	if code, err := Run(Options{}); code != 2 || err == nil {
		t.Errorf("no command: %d %v", code, err)
	}
	if code, err := Run(Options{Argv: []string{"/nonexistent/agent"}}); code != 127 || err == nil {
		t.Errorf("not found: %d %v", code, err)
	}
	dir := t.TempDir()
	notExec := filepath.Join(dir, "agent")
	os.WriteFile(notExec, []byte("#!/nonexistent/interpreter\n"), 0o755)
	if code, err := Run(Options{Argv: []string{notExec}, Stdout: &syncBuffer{}}); code != 126 || err == nil {
		t.Errorf("not startable: %d %v", code, err)
	}
}

// Every byte the agent writes reaches the person's terminal unchanged:
// arbitrary bytes (escape sequences, invalid UTF-8, NULs), more than one
// read of the relay's buffer.
func TestRunRelaysTheOutputByteForByte(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 300<<10)
	rand.Read(data)
	copy(data, "\x1b[2J\x1b[H\x1b]0;title\x07héllo \xff\xfe\x00 world\r\n")
	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// -opost: the terminal's own output processing (\n to \r\n) is off, so
	// what reaches the PTY is exactly the file.
	code, out := runIn(t, filepath.Join(dir, "mew"), "sh", "-c", `stty -opost && cat "$1"`, "sh", file)
	if code != 0 {
		t.Fatalf("exit %d: %q", code, out[:min(len(out), 200)])
	}
	if !bytes.Equal(out, data) {
		t.Fatalf("relayed %d bytes, want the agent's %d unchanged (first difference at %d)", len(out), len(data), firstDiff(out, data))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// fakeClaude draws Claude Code's permission dialog and exits; named
// claude, it is sniffed as Claude Code by its process.
const fakeClaude = `#!/bin/sh
printf '\033]0;✳ Claude Code\007\033[2J\033[H'
printf ' Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend\r\n'
sleep 1
exit 3
`

// The agent's screen is recorded in the store as a `mew run` session:
// run:<pid>, its screen read by the wrapper, its process and terminal.
func TestRunWritesTheSessionFile(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "claude")
	if err := os.WriteFile(agent, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "mew")
	code, out := runIn(t, home, agent)
	if code != 3 || !bytes.Contains(out, []byte("Esc to cancel")) {
		t.Fatalf("exit %d, output %q", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "run:*.json"))
	if len(files) != 1 {
		t.Fatalf("session files %q, want one run:<pid>", files)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	rec, err := store.Store{Home: home}.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sc := rec.Screen
	if rec.Agent != "claude" || sc == nil || sc.Via != "run" || ID(sc.Pid) != id || !strings.HasPrefix(sc.Tty, "/dev/pts/") {
		t.Fatalf("record %+v, screen %+v", rec, sc)
	}
	if sc.State != session.ScreenBlocked || sc.Reason != session.ReasonPermission || !strings.HasPrefix(sc.Rule, "claude/blocked#") {
		t.Errorf("screen %+v: want Claude Code's permission dialog", sc)
	}
	if rec.Process == nil || rec.Process.Pid != sc.Pid || rec.Process.Tty != sc.Tty {
		t.Errorf("process %+v: want the agent on the wrapper's terminal", rec.Process)
	}
	if wd, _ := os.Getwd(); rec.Process == nil || rec.Process.Cwd != wd {
		t.Errorf("process %+v: want the folder the agent started in, %s", rec.Process, wd)
	}
	if _, err := os.Stat(Socket(home, sc.Pid)); err == nil {
		t.Error("the answer socket outlived the wrapper")
	}
}

// fakeClaudeAsks waits for its answer under the dialog and says which one
// it got.
const fakeClaudeAsks = `#!/bin/bash
printf '\033]0;✳ Claude Code\007\033[2J\033[H'
printf ' Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend\r\n'
IFS= read -rsn1 answer
printf 'answered %s\r\n' "$answer"
exit 0
`

// The answer socket types only while the prompt it was chosen for is
// shown.
func TestRunAnswersOnlyTheShownPrompt(t *testing.T) {
	dir, err := os.MkdirTemp("", "mewrun") // socket paths must stay short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	agent := filepath.Join(dir, "claude")
	if err := os.WriteFile(agent, []byte(fakeClaudeAsks), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "mew")
	type result struct {
		code int
		out  []byte
	}
	done := make(chan result, 1)
	go func() {
		code, out := runIn(t, home, agent)
		done <- result{code, out}
	}()
	var sock string
	for deadline := time.Now().Add(60 * time.Second); sock == ""; time.Sleep(50 * time.Millisecond) {
		if socks, _ := filepath.Glob(filepath.Join(SocketDir(home), "*.sock")); len(socks) == 1 {
			sock = socks[0]
		}
		if time.Now().After(deadline) {
			t.Fatal("no answer socket")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var resp Response
	for deadline := time.Now().Add(60 * time.Second); resp.Screen == nil || resp.Screen.State != session.ScreenBlocked; time.Sleep(100 * time.Millisecond) {
		if resp, err = Call(ctx, sock, Request{Op: "screen"}); err != nil || !resp.OK {
			t.Fatalf("screen: %+v %v", resp, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dialog was never read: %+v", resp.Screen)
		}
	}
	yes := &session.Choice{N: 1, Label: "Yes"}
	if r, err := Call(ctx, sock, Request{Op: "type", Rule: resp.Screen.Rule, Prompt: "another prompt", Choice: yes}); err != nil || r.OK {
		t.Fatalf("typed for a prompt that is not shown: %+v %v", r, err)
	}
	if r, err := Call(ctx, sock, Request{Op: "type", Rule: resp.Screen.Rule, Prompt: resp.Screen.Prompt, Choice: yes}); err != nil || !r.OK {
		t.Fatalf("answer refused: %+v %v", r, err)
	}
	r := <-done
	if r.code != 0 || !bytes.Contains(r.out, []byte("answered 1\r")) {
		t.Fatalf("exit %d, output %q", r.code, r.out)
	}
}

// runTicked runs script as `claude` under the wrapper, whose screen reads
// the test sends as ticks (besides the reads on output); it returns the
// wrapper's Mew home, the ticks and a channel closed when the wrapper ends.
func runTicked(t *testing.T, script string) (home string, ticks chan time.Time, done chan struct{}) {
	t.Helper()
	dir, err := os.MkdirTemp("", "mewrun") // socket paths must stay short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	agent := filepath.Join(dir, "claude")
	if err := os.WriteFile(agent, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(dir, "mew")
	ticks, done = make(chan time.Time), make(chan struct{})
	go func() {
		defer close(done)
		var stdout syncBuffer
		if _, err := Run(Options{
			Argv: []string{agent}, Stdout: &stdout, Stderr: &stdout,
			Env: append(os.Environ(), "TERM=xterm-256color"), Store: store.Store{Home: home}, Rules: rules.Cached(rules.Dir(home)),
			Log:   func(format string, args ...any) { t.Logf("wrapper: "+format, args...) },
			ticks: ticks,
		}); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	return home, ticks, done
}

// fakeClaudeAnswered asks, and once answered draws a running turn and
// stays: the wrapper's record must follow while it runs.
const fakeClaudeAnswered = `#!/bin/bash
printf '\033]0;✳ Claude Code\007\033[2J\033[H'
printf ' Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend\r\n'
IFS= read -rsn1 answer
printf '\033[2J\033[H✻ Burrowing…\r\n\r\n  ⏸ manual mode on · esc to interrupt\r\n'
exec sleep 120
`

// While a prompt is shown the screen is read on output, not only every
// SweepEvery: the answer ends the wait at once. Here the test sends the
// ticks: after the one that reads the dialog none comes, so only a read on
// output can record the answered turn.
func TestRunReadsOnOutputWhileAPromptIsShown(t *testing.T) {
	home, ticks, done := runTicked(t, fakeClaudeAnswered)
	st := store.Store{Home: home}
	// Ticks until the dialog is recorded (and the answer socket is up).
	var rec session.Record
	for deadline := time.Now().Add(60 * time.Second); rec.Screen == nil || rec.Screen.State != session.ScreenBlocked; {
		select {
		case ticks <- time.Now():
		case <-time.After(50 * time.Millisecond):
		}
		if files, _ := filepath.Glob(filepath.Join(home, "sessions", "run:*.json")); len(files) == 1 {
			rec, _ = st.Load(strings.TrimSuffix(filepath.Base(files[0]), ".json"))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the dialog was never recorded: %+v", rec.Screen)
		}
	}
	pid := rec.Screen.Pid
	t.Cleanup(func() {
		unix.Kill(pid, unix.SIGTERM)
		<-done
	})
	sock := Socket(home, pid)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := Call(ctx, sock, Request{Op: "screen"})
	if err != nil || !resp.OK || resp.Screen == nil || resp.Screen.State != session.ScreenBlocked {
		t.Fatalf("screen: %+v %v", resp, err)
	}
	if r, err := Call(ctx, sock, Request{Op: "type", Rule: resp.Screen.Rule, Prompt: resp.Screen.Prompt, Choice: &session.Choice{N: 1, Label: "Yes"}}); err != nil || !r.OK {
		t.Fatalf("answer refused: %+v %v", r, err)
	}
	id := ID(pid)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		rec, err := st.Load(id)
		if err == nil && rec.Screen != nil && rec.Screen.State == session.ScreenWorking {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answered turn was never recorded: %+v %v", rec.Screen, err)
		}
	}
	select {
	case <-done:
		t.Fatal("recorded only as the wrapper ended")
	default:
	}
}

// While a turn runs the screen is read once its output pauses, not only
// every SweepEvery: the turn's end is the agent's last frame. Here the
// test sends the ticks: after the one that reads the turn running none
// comes, so only a read on the pause can record its end.
func TestRunReadsWhenARunningTurnGoesQuiet(t *testing.T) {
	release := filepath.Join(t.TempDir(), "release")
	home, ticks, done := runTicked(t, strings.ReplaceAll(fakeClaudeSpinsThenEnds, "RELEASE", release))
	st := store.Store{Home: home}
	load := func() session.Record {
		files, _ := filepath.Glob(filepath.Join(home, "sessions", "run:*.json"))
		if len(files) != 1 {
			return session.Record{}
		}
		rec, _ := st.Load(strings.TrimSuffix(filepath.Base(files[0]), ".json"))
		return rec
	}
	// Ticks until the running turn is recorded.
	var rec session.Record
	for deadline := time.Now().Add(60 * time.Second); rec.Screen == nil || rec.Screen.State != session.ScreenWorking; rec = load() {
		select {
		case ticks <- time.Now():
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the running turn was never recorded: %+v", rec.Screen)
		}
	}
	pid := rec.Screen.Pid
	t.Cleanup(func() {
		unix.Kill(pid, unix.SIGTERM)
		<-done
	})
	// No tick from here: the turn ends when the test says so.
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if rec = load(); rec.Screen != nil && rec.Screen.State == session.ScreenIdle && rec.Screen.TurnEnded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the turn's end was never recorded: %+v", rec.Screen)
		}
	}
}

// fakeClaudeSpinsThenEnds draws a running turn, a frame every 50 ms, until
// the file RELEASE exists, then its end, and stays.
const fakeClaudeSpinsThenEnds = `#!/bin/bash
printf '\033]0;✳ Claude Code\007'
while [ ! -e RELEASE ]; do
	for f in '·' '✢' '✳' '✶' '✻' '✽'; do
		printf '\033[2J\033[H%s Burrowing…\r\n\r\n  ⏸ manual mode on · esc to interrupt\r\n' "$f"
		sleep 0.05
	done
done
printf '\033[2J\033[H● Done.\r\n\r\n✻ Worked for 2s\r\n❯ \r\n  ⏸ manual mode on · ? for shortcuts\r\n'
exec sleep 120
`
