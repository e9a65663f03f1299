package hookbin

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/usage"
)

// StatuslineFlag makes mew-hook Claude Code's statusline command, and
// StatuslineCommandFile in $MEW_HOME holds the person's own one
// (internal/hookcli).
const (
	StatuslineFlag        = hookcli.StatuslineFlag
	StatuslineCommandFile = hookcli.StatuslineCommandFile
)

// Bounds of the statusline wrapper: what it reads of the input (Claude
// Code's is a few KB), how long it waits for a session's lock (a hook
// holds it for about a millisecond), and how long it lets its recording
// outlast the person's command.
const (
	maxStatusInput    = 4 << 20
	statusLockTimeout = 100 * time.Millisecond
	statusRecordGrace = 150 * time.Millisecond
	// statusRefresh: an unchanged reading is written again only this
	// often, so its age stays true without a write on every redraw.
	statusRefresh = 30 * time.Second
)

// StatuslineOptions are the wrapper's inputs, injectable for tests.
type StatuslineOptions struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Store          store.Store
	Now            time.Time
	// Shell runs the person's command ("/bin/sh" when empty), as Claude
	// Code runs a statusline command: through the shell.
	Shell string
}

// Statusline is the whole statusline program; it returns the exit code.
// The person's command decides what is printed and the exit code; Mew's
// part runs beside it and can only fail silently.
func Statusline() int {
	o := StatuslineOptions{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now().UTC()}
	st, err := store.Open(Fold)
	if err == nil {
		o.Store = st
	}
	return RunStatusline(o)
}

// RunStatusline runs the person's command and records the reading.
func RunStatusline(o StatuslineOptions) int {
	input, _ := io.ReadAll(io.LimitReader(o.Stdin, maxStatusInput))
	command := personsCommand(o.Store)
	var child *exec.Cmd
	var sigs chan os.Signal
	if len(bytes.TrimSpace(command)) > 0 {
		// Claude Code stops a statusline command that runs too long: the
		// stop reaches the person's command as it did without Mew. Caught
		// before the command starts: a stop between its start and the
		// catch would end Mew's process and leave the command running.
		sigs = make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		defer signal.Stop(sigs)
		child = personsProcess(string(bytes.TrimSpace(command)), o.Shell)
		child.Stdin, child.Stdout, child.Stderr = bytes.NewReader(input), o.Stdout, o.Stderr
		if err := child.Start(); err != nil {
			child = nil
		}
	}
	recorded := make(chan struct{})
	go func() {
		defer close(recorded)
		defer func() { recover() }() // Mew's part never takes the line down
		recordStatus(o.Store, input, o.Now)
	}()
	code := 0
	if child != nil {
		go func() {
			if s, ok := <-sigs; ok {
				child.Process.Signal(s)
			}
		}()
		if err := child.Wait(); err != nil {
			code = 1
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 {
				code = ee.ExitCode()
			}
		}
	}
	select {
	case <-recorded:
	case <-time.After(statusRecordGrace):
	}
	return code
}

// personsProcess is the person's command as the shell would run it. A
// command that is one plain word (a script's path, the common case) is
// started directly, as the shell would exec it: a second shell costs a
// millisecond on every redraw.
func personsProcess(command, shell string) *exec.Cmd {
	if plainWord(command) {
		if rest, ok := strings.CutPrefix(command, "~/"); ok {
			if home := os.Getenv("HOME"); home != "" {
				command = filepath.Join(home, rest)
			}
		}
		if !strings.HasPrefix(command, "~") {
			return exec.Command(command)
		}
	}
	if shell == "" {
		shell = "/bin/sh"
	}
	return exec.Command(shell, "-c", command)
}

// plainWord: nothing in s that a shell would treat specially (no blanks,
// quotes, variables, globs, redirections, separators).
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ',' || c == ':' || c == '@' || c == '%':
		case c == '~' && i == 0:
		default:
			return false
		}
	}
	return true
}

// MaxStatuslineCommand bounds the statusline-command file.
const MaxStatuslineCommand = hookcli.MaxStatuslineCommand

// personsCommand reads the command Mew's statusline wraps; nil for none.
func personsCommand(st store.Store) []byte {
	if st.Home == "" {
		return nil
	}
	b, err := privfile.ReadFile(filepath.Join(st.Home, StatuslineCommandFile), MaxStatuslineCommand)
	if err != nil {
		return nil
	}
	return b
}

// recordStatus files the reading under its session, only in a session Mew
// already follows (its hooks or the registry made the record): a stray
// statusline input makes no session of its own.
func recordStatus(st store.Store, input []byte, now time.Time) {
	if st.Home == "" {
		return
	}
	id, u, err := usage.FromClaude(input, now)
	if err != nil {
		return
	}
	p, err := st.Path(id)
	if err != nil {
		return
	}
	if _, err := os.Stat(p); err != nil {
		return
	}
	st.Update(id, statusLockTimeout, func(rec *session.Record, existed bool) bool {
		if !existed {
			return false
		}
		if old := rec.Usage; old != nil && sameReading(*old, u) && now.Sub(old.At) < statusRefresh && !now.Before(old.At) {
			return false
		}
		rec.Usage = &u
		return true
	})
}

// sameReading compares two readings but for when they were taken.
func sameReading(a, b session.Usage) bool {
	a.At, b.At = time.Time{}, time.Time{}
	return eqF(a.ContextPercent, b.ContextPercent) && eqF(a.CostUSD, b.CostUSD) && eqQ(a.FiveHour, b.FiveHour) && eqQ(a.Weekly, b.Weekly) &&
		a.Model == b.Model && a.ContextSize == b.ContextSize && a.ContextUsed == b.ContextUsed && a.TotalTokens == b.TotalTokens && a.Source == b.Source && a.Account == b.Account
}

func eqF(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func eqQ(a, b *session.Quota) bool {
	return (a == nil) == (b == nil) && (a == nil || (a.UsedPercent == b.UsedPercent && a.ResetsAt.Equal(b.ResetsAt)))
}
