package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/testbin"
)

// fakeTmux logs each call's arguments and fails, as a tmux without a
// server would.
const fakeTmux = `#!/bin/sh
echo "$*" >> "$MEW_TEST_TMUX_LOG"
exit 1
`

// A mew command started on a terminal that answers nothing (a PTY without
// an emulator: script(1), expect, CI) neither waits for an answer nor
// writes anything but its own output there. Bubble Tea v1's package init
// asked every mew process for the terminal's background colour (OSC 11 and
// a cursor report) and waited 5 s for the answer; Lip Gloss v2's init runs
// `tmux info` in every process started in tmux.
func TestCommandsStartWithoutAskingTheTerminal(t *testing.T) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(fakeTmux), 0o755); err != nil {
		t.Fatal(err)
	}
	tmuxLog := filepath.Join(dir, "tmux.log")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "COLORTERM=") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv) // neither settles the colours without asking
		}
	}
	env = append(env, "MEW_HOME="+filepath.Join(dir, "mew"), "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "claude"),
		"PATH="+bin+":"+os.Getenv("PATH"), "TERM=xterm-256color", "TMUX="+filepath.Join(dir, "tmux.sock")+",1,0",
		"MEW_TMUX_SOCKET="+filepath.Join(dir, "no-tmux"), "MEW_TEST_TMUX_LOG="+tmuxLog)

	for _, args := range [][]string{{"status"}, {"watch", "--once"}, {"run", "--", "true"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// What the command means to print (its notes on stderr too, as
			// the tmux source's complaint), through a pipe.
			piped := exec.Command(mew, args...)
			piped.Env = env
			want, err := piped.CombinedOutput()
			if err != nil {
				t.Fatalf("piped: %v", err)
			}

			tm := newTerminal(t)
			cmd := tm.start(t, env, append([]string{mew}, args...)...)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("exit: %v", err)
				}
			case <-time.After(4 * time.Second): // under termenv's 5 s wait for an answer
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running on a terminal that answers nothing; it wrote %q", tm.text())
			}
			tm.slave.Close() // the last writer gone: the reader sees the end
			<-tm.done
			got := tm.text()
			for _, q := range []string{"\x1b]11;?", "\x1b[6n", "\x1b]10;?", "\x1b[c"} {
				if strings.Contains(got, q) {
					t.Errorf("asked the terminal %q", q)
				}
			}
			// The terminal's line discipline turns \n into \r\n.
			if w := strings.ReplaceAll(string(want), "\n", "\r\n"); got != w {
				t.Errorf("the terminal got\n%q\nwant only the command's output\n%q", got, w)
			}
		})
	}
	if calls, err := os.ReadFile(tmuxLog); err == nil && strings.Contains("\n"+string(calls), "\ninfo") {
		t.Errorf("a mew command ran `tmux info` at start-up:\n%s", calls)
	}
}
