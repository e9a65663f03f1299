package answer

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/tmux"
)

// waitPrompt waits for the pane to show a dialog and returns the want a
// person makes on it for choice n (as the tracker reads it).
func waitPrompt(t testing.TB, term Terminal, n int) Want {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		f, err := term.Read(context.Background())
		if err == nil {
			var tr screen.Tracker
			tr.Observe(claude, f, time.Now())
			if tr.State.State == session.ScreenBlocked {
				for _, c := range tr.State.Choices {
					if c.N == n {
						return Want{SessionID: "tmux:%0", Agent: "claude", Choice: c, Rule: tr.State.Rule, Prompt: tr.State.Prompt}
					}
				}
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the fake agent never showed its dialog")
	return Want{}
}

func TestTmuxAnswer(t *testing.T) {
	s := fakeagent.Start(t, "30")
	book := rules.Embedded()
	home := t.TempDir()
	a := &Answerer{Home: home, Rules: func() (*rules.Book, []error) { return book, nil }}
	term, err := NewTmuxTerminal(tmux.Exec{Socket: s.Socket}, s.Pane)
	if err != nil {
		t.Fatal(err)
	}
	w := waitPrompt(t, term, 2)
	target := Target{Via: ViaTmux, Pane: s.Pane, Socket: s.Socket}
	res := a.Answer(context.Background(), target, w)
	if res.Outcome != Answered || strings.Join(s.Keys(), ",") != "2" {
		t.Fatalf("%+v; the agent read %q", res, s.Keys())
	}
	t.Logf("answered in %v (%v from the keys to the prompt gone)", res.Took(), res.Gone.Sub(res.Typed))

	// The same want again: the prompt is gone (answered): nothing typed.
	res = a.Answer(context.Background(), target, w)
	if res.Outcome != Refused || len(s.Keys()) != 1 || !strings.Contains(res.Message, "shows no prompt") {
		t.Fatalf("second answer: %+v; the agent read %q", res, s.Keys())
	}

	// The log has both, 0600.
	fi, err := os.Stat(LogPath(home))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log: %v %v", fi, err)
	}
	f, _ := os.Open(LogPath(home))
	defer f.Close()
	var outcomes []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.Session != "tmux:%0" || e.Choice != w.Choice || e.Rule == "" || !strings.Contains(e.Prompt, "touch file-1") {
			t.Errorf("log entry %+v", e)
		}
		outcomes = append(outcomes, string(e.Outcome))
	}
	if strings.Join(outcomes, ",") != "answered,refused" {
		t.Errorf("logged %v", outcomes)
	}
}

// Several prompts answered in a row, each read and typed with plain tmux
// processes, as the boards type.
func TestTmuxAnswersInARow(t *testing.T) {
	s := fakeagent.Start(t, "0.2")
	ctx := context.Background()
	c := tmux.Exec{Socket: s.Socket}
	term, _ := NewTmuxTerminal(c, s.Pane)
	for i, n := range []int{1, 3, 2} {
		w := waitPrompt(t, term, n)
		if !strings.Contains(w.Prompt, "touch file-"+string(rune('1'+i))) {
			t.Fatalf("prompt %d: %q", i, w.Prompt)
		}
		res := Do(ctx, term, claude, w, Options{})
		if res.Outcome != Answered {
			t.Fatalf("answer %d: %+v", i, res)
		}
	}
	if got := strings.Join(s.Keys(), ","); got != "1,3,2" {
		t.Errorf("the agent read %q", got)
	}
}

// A pane with a shell, not an agent's prompt: nothing is typed into it.
func TestTmuxNeverTypesIntoAPaneThatIsNotBlocked(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	socket := filepath.Join(dir, "sock")
	out, err := exec.Command("tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_id}", "-x", "80", "-y", "10",
		"env PS1='$ ' bash --norc --noprofile").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	defer exec.Command("tmux", "-S", socket, "kill-server").Run()
	pane := strings.TrimSpace(string(out))
	// The shell prints something that reads like a dialog, but older than
	// the screen: a command the person typed.
	exec.Command("tmux", "-S", socket, "send-keys", "-t", pane, "clear; echo 'Do you want to proceed?'; echo '❯ 1. Yes'; echo '  2. No'", "Enter").Run()
	time.Sleep(300 * time.Millisecond)
	term, _ := NewTmuxTerminal(tmux.Exec{Socket: socket}, pane)
	term.Procs = nil // to see the rows
	before, _ := term.Read(context.Background())
	term.Procs = tmux.LocalProcs{}
	w := Want{Agent: "claude", Choice: session.Choice{N: 1, Label: "Yes"}, Rule: "claude/blocked#3"}
	res := Do(context.Background(), term, claude, w, Options{})
	term.Procs = nil
	after, _ := term.Read(context.Background())
	// The rows would pass for a dialog: what refuses is the shell in the
	// pane's foreground.
	if res.Outcome != Refused || res.Keys != nil || !strings.Contains(res.Message, "a shell (bash) is in the foreground") ||
		strings.Join(before.Rows, "\n") != strings.Join(after.Rows, "\n") {
		t.Errorf("%+v; screen before %q after %q", res, before.Rows, after.Rows)
	}
	if _, err := NewTmuxTerminal(tmux.Exec{Socket: socket}, "%0; kill-server"); err == nil {
		t.Error("a hostile pane id was accepted")
	}
}

// flipper draws the dialog for "touch file-A", draws file-B instead on
// SIGUSR1, logs each key with the dialog it was read on, then shows a
// finished turn.
const flipper = `#!/bin/bash
cmd=A
draw() { printf '\033[2J\033[H● Creating a file\r\n────────────────────────────────────────────────────────────\r\n Bash command\r\n touch file-%s\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. Yes, and always allow access to /p\r\n   3. No\r\n\r\n Esc to cancel · Tab to amend' "$cmd"; }
trap 'cmd=B; draw' USR1
draw
until IFS= read -rsn1 k; do :; done
printf '%s:%s\n' "$cmd" "$k" >> "$KEYLOG"
printf '\033[2J\033[H● Done.\r\n\r\n✻ Worked for 1s\r\n❯ \r\n  ⏸ manual mode on · ? for shortcuts'
sleep 60
`

// flipAfterRead is a pane whose dialog changes to another command right
// after Do's check read it, before the keys go: they land on the other
// command, which must be reported as a changed prompt, never answered.
type flipAfterRead struct {
	*TmuxTerminal
	flip  func()
	reads int
}

func (f *flipAfterRead) Read(ctx context.Context) (rules.Frame, error) {
	fr, err := f.TmuxTerminal.Read(ctx)
	if f.reads++; f.reads == 1 {
		f.flip()
	}
	return fr, err
}

func TestTmuxAnswerToAPromptThatChangedIsNotAnswered(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	os.WriteFile(bin, []byte(flipper), 0o755)
	socket, keylog := filepath.Join(dir, "sock"), filepath.Join(dir, "keys.log")
	start := func() string {
		out, err := exec.Command("tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_id}",
			"-x", "100", "-y", "20", "-e", "KEYLOG="+keylog, bin).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux: %v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	defer exec.Command("tmux", "-S", socket, "kill-server").Run()
	ctx := context.Background()
	waitFor := func(term Terminal, text string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if f, err := term.Read(ctx); err == nil && strings.Contains(strings.Join(f.Rows, "\n"), text) {
				return
			}
		}
		t.Fatalf("the pane never showed %q", text)
	}
	keys := func() string { data, _ := os.ReadFile(keylog); return strings.TrimSpace(string(data)) }

	// Unchanged: answered, on the command it was chosen for.
	pane := start()
	term, _ := NewTmuxTerminal(tmux.Exec{Socket: socket}, pane)
	waitFor(term, "Esc to cancel")
	w := waitPrompt(t, term, 1)
	if res := Do(ctx, term, claude, w, Options{}); res.Outcome != Answered || keys() != "A:1" {
		t.Fatalf("%+v; the agent read %q", res, keys())
	}

	// Changed between the check and the keys.
	os.Remove(keylog)
	pane = start()
	term, _ = NewTmuxTerminal(tmux.Exec{Socket: socket}, pane)
	waitFor(term, "Esc to cancel")
	w = waitPrompt(t, term, 1)
	if !strings.Contains(w.Prompt, "touch file-A") {
		t.Fatalf("want on %q", w.Prompt)
	}
	flip := &flipAfterRead{TmuxTerminal: term, flip: func() {
		info, err := tmux.Exec{Socket: socket}.Run(ctx, "display-message", "-p", "-t", pane, "#{pane_pid}")
		if err != nil || len(info) == 0 {
			t.Fatalf("pane pid: %v", err)
		}
		pid, err := strconv.Atoi(info[0])
		if err != nil {
			t.Fatalf("pane pid %q", info[0])
		}
		syscall.Kill(pid, syscall.SIGUSR1)
		waitFor(term, "touch file-B")
	}}
	res := Do(ctx, flip, claude, w, Options{})
	t.Logf("%s: %s; the agent read %q", res.Outcome, res.Message, keys())
	if res.Outcome == Answered {
		t.Fatalf("reported answered, and the agent read %q", keys())
	}
	if k := keys(); k != "" && (res.Outcome != Changed || res.Keys == nil) {
		t.Fatalf("the agent read %q, but the answer says %s (keys %v)", k, res.Outcome, res.Keys)
	}
}

// `tmux new-session "claude; …"`: tmux runs the command with sh -c, which
// stays the pane's foreground job, the agent its child. The tmux source
// lists such a pane as answerable; the answer must go through too.
func TestTmuxAnswersAnAgentRunByAShellCommand(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := fakeagent.Write(t, dir)
	socket, keylog := filepath.Join(dir, "sock"), filepath.Join(dir, "keys.log")
	out, err := exec.Command("tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_id}",
		"-x", "100", "-y", "20", "-e", "KEYLOG="+keylog, "-e", "PAUSE=60", bin+"; sleep 60").CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	defer exec.Command("tmux", "-S", socket, "kill-server").Run()
	pane := strings.TrimSpace(string(out))
	term, _ := NewTmuxTerminal(tmux.Exec{Socket: socket}, pane)
	probe := *term
	probe.Procs = nil // to see the rows whatever the foreground job
	w := waitPrompt(t, &probe, 1)
	res := Do(context.Background(), term, claude, w, Options{})
	if data, _ := os.ReadFile(keylog); res.Outcome != Answered || strings.TrimSpace(string(data)) != "1" {
		t.Fatalf("%+v; the agent read %q", res, data)
	}
}

func TestRunsCommand(t *testing.T) {
	for argv, want := range map[string]bool{
		"sh -c claude;sleep": true, "bash -lc claude": true, "/bin/sh -e -c x": true,
		"bash": false, "bash --norc --noprofile": false, "zsh -l": false, "sh script.sh -c x": false, "sh -c": false,
	} {
		if got := runsCommand(strings.Fields(argv)); got != want {
			t.Errorf("%q: %v", argv, got)
		}
	}
}
