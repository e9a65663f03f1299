package driver

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A CLI is started the way a person starts it: typed into an interactive
// shell in its pane (the shell makes it a job of its own, in the
// foreground of the pane's terminal; when it exits, the shell is back).
// Options.Direct runs it as the pane's own program instead.

// shellPrompt is the prompt of the pane's shell: plain, so the driver can
// see it and nobody's rc file changes it.
const shellPrompt = "mew-e2e$ "

// shellArgv is the interactive shell a pane starts: bash without the
// person's rc files where there is one, else sh. No history: bash writes
// ~/.bash_history as it exits, which raced the removal of the run's home
// (the test's TempDir cleanup failed "directory not empty").
func shellArgv() []string {
	if p, err := exec.LookPath("bash"); err == nil {
		return []string{p, "--noprofile", "--norc", "-i", "+o", "history"}
	}
	return []string{"/bin/sh", "-i"}
}

// shellLine quotes argv as one command line for the shell.
func shellLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shellWord(a)
	}
	return strings.Join(words, " ")
}

// shellWord single-quotes a word unless it is plain.
func shellWord(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '+' || r == '@' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellJob follows the job a pane's shell runs: the terminal's foreground
// process group, read from the shell's /proc/<pid>/stat (tpgid).
type shellJob struct {
	shell   int
	started atomic.Bool
	job     atomic.Int64 // the job's process group leader (the CLI, or its wrapper)
}

// foreground is the foreground process group of the shell's terminal.
func foregroundOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("stat of %d: no command field", pid)
	}
	// After "(comm)": state ppid pgrp session tty_nr tpgid.
	f := strings.Fields(s[i+1:])
	if len(f) < 6 {
		return 0, fmt.Errorf("stat of %d: too short", pid)
	}
	return strconv.Atoi(f[5])
}

// back reports whether the job started and the shell is in the foreground
// again (the CLI exited, or was suspended).
func (j *shellJob) back() bool {
	if j == nil || !j.started.Load() {
		return false
	}
	fg, err := foregroundOf(j.shell)
	return err != nil || fg == j.shell
}

// waitStarted waits until the shell has put the typed command in the
// foreground and returns the job's pid.
func (j *shellJob) waitStarted(timeout time.Duration) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		fg, err := foregroundOf(j.shell)
		if err == nil && fg > 0 && fg != j.shell {
			j.job.Store(int64(fg))
			j.started.Store(true)
			return fg, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("the shell (pid %d) never started the typed command (foreground %d, %v)", j.shell, fg, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startInShell starts the interactive shell in the pane, waits for its
// prompt, types argv as a person would and presses Enter; it returns when
// Enter was sent, once the job is in the foreground.
func (t *Tmux) startInShell(dir string, argv []string) (time.Time, error) {
	// The prompt through the shell's environment only (-e): the CLI's is
	// the run's.
	args := append([]string{"respawn-pane", "-k", "-t", t.Target, "-c", dir, "-e", "PS1=" + shellPrompt, "--"}, shellArgv()...)
	if _, err := t.run(args...); err != nil {
		return time.Time{}, err
	}
	st, err := t.Pane()
	if err != nil {
		return time.Time{}, err
	}
	t.job = &shellJob{shell: st.Pid}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if s, err := t.Capture(); err == nil && strings.Contains(s, strings.TrimSpace(shellPrompt)) {
			break
		}
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("the pane's shell never showed its prompt %q", shellPrompt)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := t.Type(shellLine(argv)); err != nil {
		return time.Time{}, err
	}
	at := time.Now()
	if err := t.Keys("Enter"); err != nil {
		return time.Time{}, err
	}
	if _, err := t.job.waitStarted(10 * time.Second); err != nil {
		return time.Time{}, err
	}
	return at, nil
}

// TypeCommand types a command line into the pane's shell once the CLI it
// ran has exited (the shell is back), as a person starts the next one
// (`codex resume --last`), and returns when Enter was sent, once the new
// job is in the foreground. Only for runs started in a shell.
func (r *Run) TypeCommand(argv ...string) (time.Time, error) {
	j := r.Tmux.job
	if j == nil {
		return time.Time{}, fmt.Errorf("the CLI was not started in a shell (Options.Direct)")
	}
	if !j.back() {
		return time.Time{}, fmt.Errorf("the shell is not in the foreground: the CLI still runs")
	}
	if err := r.Tmux.Type(shellLine(argv)); err != nil {
		return time.Time{}, err
	}
	j.started.Store(false)
	at := time.Now()
	if err := r.Tmux.Keys("Enter"); err != nil {
		return time.Time{}, err
	}
	r.TL.Addf(at, "key", "typed %s into the shell", shellLine(argv))
	if _, err := j.waitStarted(10 * time.Second); err != nil {
		return time.Time{}, err
	}
	return at, nil
}

// CLIPid is the job the pane's shell runs (the CLI, or `mew run` around
// it); the pane's own process when the CLI runs directly.
func (r *Run) CLIPid() int {
	if j := r.Tmux.job; j != nil {
		return int(j.job.Load())
	}
	if st, err := r.Tmux.Pane(); err == nil {
		return st.Pid
	}
	return 0
}
