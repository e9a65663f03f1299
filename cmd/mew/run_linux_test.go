package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/internal/testbin"
	runwrap "github.com/mew-dev/mew/screen/run"
	"github.com/mew-dev/mew/session"
)

// fakeClaude draws Claude Code's permission dialog, waits for a key,
// draws a finished turn, prints its terminal size when asked, and exits
// with 7. Named claude, it is sniffed as Claude Code by its process.
const fakeClaude = `#!/bin/bash
printf '\033]0;✳ Claude Code\007\033[2J\033[H'
printf ' Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend\r\n'
IFS= read -rsn1 answer
printf '\033[2J\033[H● Done (%s).\r\n\r\n✻ Worked for 1s\r\n❯ \r\n  ⏸ manual mode on · ? for shortcuts\r\n' "$answer"
read -r _
stty size
read -r _
exit 7
`

// terminal is the person's terminal: a PTY whose other end the test reads
// and types into.
type terminal struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	done          chan struct{}
}

func newTerminal(t *testing.T) *terminal {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	pty.Setsize(m, &pty.Winsize{Rows: 32, Cols: 120})
	term := &terminal{master: m, slave: s, done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { m.Close(); s.Close() })
	return term
}

func (tm *terminal) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.String()
}

func (tm *terminal) waitFor(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(tm.text(), want) {
			return
		}
	}
	t.Fatalf("the terminal never showed %q:\n%q", want, tm.text())
}

// start runs argv with the terminal as its controlling terminal, in the
// foreground, as a shell would.
func (tm *terminal) start(t *testing.T, env []string, argv ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tm.slave, tm.slave, tm.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

func TestRunWrapsAnAgentTransparently(t *testing.T) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "mew")
	env := append(os.Environ(), "MEW_HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "claude"),
		"PATH="+bin+":"+os.Getenv("PATH"), "MEW_TMUX_SOCKET="+filepath.Join(dir, "no-tmux"), "TERM=xterm-256color")

	// The same agent straight on a terminal, for the byte-for-byte check.
	direct := newTerminal(t)
	cmd := direct.start(t, env, filepath.Join(bin, "claude"))
	direct.waitFor(t, "Esc to cancel")
	direct.master.Write([]byte("1"))
	direct.waitFor(t, "? for shortcuts")
	direct.master.Write([]byte("\r"))
	direct.waitFor(t, "32 120")
	direct.master.Write([]byte("\r"))
	cmd.Wait()
	time.Sleep(100 * time.Millisecond) // the last bytes through the master

	person := newTerminal(t)
	before, err := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	run := person.start(t, env, mew, "run", "--", "claude")
	person.waitFor(t, "Esc to cancel")

	// The session is in the store as a screen session, waiting.
	status := func() []session.Shown {
		t.Helper()
		c := exec.Command(mew, "status", "--json")
		c.Env = env
		out, err := c.Output()
		if err != nil {
			t.Fatalf("mew status: %v", err)
		}
		var shown []session.Shown
		if err := json.Unmarshal(out, &shown); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return shown
	}
	waitState := func(want session.State) session.Shown {
		t.Helper()
		var last []session.Shown
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			last = status()
			if len(last) == 1 && last[0].State == want {
				return last[0]
			}
		}
		t.Fatalf("mew status never showed %s: %+v", want, last)
		return session.Shown{}
	}
	s := waitState(session.Waiting)
	if s.Reason != session.ReasonPermission || !strings.HasPrefix(s.ID, "run:") || s.Agent != "claude" || !strings.HasPrefix(s.Source, "screen:claude/blocked#") || !strings.HasPrefix(s.Tty, "/dev/pts/") {
		t.Errorf("waiting session: %+v", s)
	}
	pid := strings.TrimPrefix(s.ID, "run:")

	// The answer socket answers the prompt (that it types only while that
	// prompt is shown is screen/run's test).
	sock := filepath.Join(home, "run", pid+".sock")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := runwrap.Call(ctx, sock, runwrap.Request{Op: "screen"})
	if err != nil || !resp.OK || resp.Screen.State != session.ScreenBlocked {
		t.Fatalf("screen: %+v %v", resp, err)
	}
	yes := &session.Choice{N: 1, Label: "Yes"}
	if r, err := runwrap.Call(ctx, sock, runwrap.Request{Op: "type", Rule: resp.Screen.Rule, Prompt: "another prompt", Choice: yes}); err != nil || r.OK {
		t.Fatalf("typed for a prompt that is not shown: %+v %v", r, err)
	}
	if r, err := runwrap.Call(ctx, sock, runwrap.Request{Op: "type", Rule: resp.Screen.Rule, Prompt: resp.Screen.Prompt, Choice: yes}); err != nil || !r.OK {
		t.Fatalf("answer refused: %+v %v", r, err)
	}
	person.waitFor(t, "Done (1)")
	waitState(session.Done)

	// A new size reaches the agent.
	pty.Setsize(person.master, &pty.Winsize{Rows: 40, Cols: 100})
	time.Sleep(100 * time.Millisecond)
	person.master.Write([]byte("\r"))
	person.waitFor(t, "40 100")
	person.master.Write([]byte("\r"))

	err = run.Wait()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("mew run's exit: %v, want the agent's 7", err)
	}
	after, err := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Errorf("the terminal was not restored:\nbefore %+v\nafter  %+v", before, after)
	}
	// The agent's own output reached the person's terminal unchanged: the
	// same bytes as without Mew, up to the answer (typed by Mew, not the
	// person, so not echoed the same way).
	want := direct.text()
	got := person.text()
	cut := strings.Index(want, "● Done")
	if cut < 0 || !strings.HasPrefix(got, want[:cut]) {
		t.Errorf("output differs from the agent's own:\nwithout mew: %q\nwith mew:    %q", want, got)
	}
	if _, err := os.Stat(sock); err == nil {
		t.Error("the answer socket outlived the wrapper")
	}
}

// Ctrl-Z stops the agent, and `mew run` follows it into the background:
// the person's terminal is given back as it was; `fg` (SIGCONT) resumes
// both, with the wrapper's raw mode back.
func TestRunFollowsCtrlZ(t *testing.T) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent")
	os.WriteFile(agent, []byte("#!/bin/bash\necho ready\nwhile read -r l; do [ \"$l\" = quit ] && exit 4; echo \"echo: $l\"; done\n"), 0o755)
	env := append(os.Environ(), "MEW_HOME="+filepath.Join(dir, "mew"), "MEW_TMUX_SOCKET="+filepath.Join(dir, "none"), "TERM=dumb")
	person := newTerminal(t)
	cooked, err := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	run := person.start(t, env, mew, "run", "--", agent)
	person.waitFor(t, "ready")
	state := func() byte {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(run.Process.Pid) + "/stat")
		if err != nil {
			return 0
		}
		s := string(data)
		return s[strings.LastIndexByte(s, ')')+2]
	}
	person.master.Write([]byte{0x1a}) // Ctrl-Z
	deadline := time.Now().Add(60 * time.Second)
	for state() != 'T' {
		if time.Now().After(deadline) {
			t.Fatalf("mew run did not stop with its agent (state %c)", state())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if now, _ := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS); *now != *cooked {
		t.Errorf("the terminal was not given back while suspended:\n%+v\n%+v", now, cooked)
	}
	run.Process.Signal(syscall.SIGCONT) // fg
	person.master.Write([]byte("hello\r"))
	person.waitFor(t, "echo: hello")
	if now, _ := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS); *now == *cooked {
		t.Errorf("raw mode not restored after fg")
	}
	person.master.Write([]byte("quit\r"))
	err = run.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Fatalf("exit: %v, want the agent's 4", err)
	}
}

// An agent that floods its terminal with "insert 1000 lines" and exits:
// the person's terminal is back (cooked, `mew run` gone) within a second
// of the agent's exit, not once Mew's emulator has read it all. The
// terminal is large, so even capped counts keep the emulator busy for
// seconds. The ceiling checked is 3× that goal: a loaded machine may miss
// the goal, only a wait for the emulator misses the ceiling.
func TestRunExitDoesNotWaitForTheEmulator(t *testing.T) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent")
	os.WriteFile(agent, []byte("#!/usr/bin/env python3\nimport os\nos.write(1, b'\\x1b[1000L' * 37449)\nos.write(1, b'bye from the agent')\n"), 0o755)
	env := append(os.Environ(), "MEW_HOME="+filepath.Join(dir, "mew"), "MEW_TMUX_SOCKET="+filepath.Join(dir, "none"), "TERM=xterm-256color")
	person := newTerminal(t)
	pty.Setsize(person.master, &pty.Winsize{Rows: 120, Cols: 400})
	cooked, err := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	run := person.start(t, env, mew, "run", "--", agent)
	exited := make(chan error, 1)
	go func() { exited <- run.Wait() }()
	person.waitFor(t, "bye from the agent")
	seen := time.Now()
	select {
	case err := <-exited:
		t.Logf("mew run exited %v after the agent's last bytes reached the terminal (%v)", time.Since(seen).Round(time.Millisecond), err)
	case <-time.After(3 * time.Second):
		t.Fatalf("mew run still holds the terminal %v after the agent's last bytes", time.Since(seen).Round(time.Millisecond))
	}
	if now, _ := unix.IoctlGetTermios(int(person.slave.Fd()), unix.TCGETS); *now != *cooked {
		t.Errorf("the terminal was not restored")
	}
}
