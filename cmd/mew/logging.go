package main

import (
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/mew-dev/mew/board/tui"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	programs "github.com/mew-dev/mew/terminal" // a test type is named terminal
)

// openLog opens $MEW_HOME/mew.log for a long-running mode (mew watch,
// status --watch) and says what this run found: which tmux it uses and
// where from, the first thing to know when no pane is read. Started by
// launchd (tmux found only through the login shell's PATH), the mode also
// takes the login shell's TMUX_TMPDIR, where tmux's default server is;
// call it before the monitor starts.
func openLog(home, mode string) *logfile.Log {
	l := logfile.Open(logfile.PathIn(home), mode)
	tmux, err := programs.LookPath("tmux")
	if err != nil {
		tmux = err.Error()
	}
	l.Printf("started: mew %s (%s/%s), pid %d; tmux: %s", remote.BuildVersion(), runtime.GOOS, runtime.GOARCH, os.Getpid(), tmux)
	if dir := programs.KnownLoginTmuxTmpdir(); dir != "" {
		os.Setenv("TMUX_TMPDIR", dir)
		l.Printf("TMUX_TMPDIR=%s, from the login shell", dir)
	}
	return l
}

// problemLog writes the monitor's problems to the log when they change
// (the monitor repeats them on every update).
type problemLog struct {
	log  *logfile.Log
	last string
}

func (p *problemLog) note(errs []error) {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	if b.String() == p.last {
		return
	}
	p.last = b.String()
	for _, e := range errs {
		p.log.Printf("skipped: %v", e)
	}
}

// loggedJumper and loggedAnswerer put the terminal board's jumps and
// answers in the log as well.
type loggedJumper struct {
	tui.Jumper
	log *logfile.Log
}

func (j loggedJumper) Jump(id string) (string, error) {
	msg, err := j.Jumper.Jump(id)
	if err != nil {
		j.log.Printf("jump %s: %v", id, err)
	} else {
		j.log.Printf("jump %s: %s", id, msg)
	}
	return msg, err
}

type loggedAnswerer struct {
	tui.Answerer
	log *logfile.Log
}

func (a loggedAnswerer) Answer(id string, c session.Choice) (string, error) {
	msg, err := a.Answerer.Answer(id, c)
	if err != nil {
		a.log.Printf("answer %s %d %q: %v", id, c.N, c.Label, err)
	} else {
		a.log.Printf("answer %s %d %q: %s", id, c.N, c.Label, msg)
	}
	return msg, err
}

// teeToLog writes everything said on stderr to the log too (status
// --watch: its notes are lines).
func teeToLog(stderr io.Writer, l *logfile.Log) io.Writer {
	return io.MultiWriter(stderr, lineWriter{l})
}

// lineWriter hands each line of a write to the log as its own line.
type lineWriter struct{ l *logfile.Log }

func (w lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if line != "" {
			w.l.Write([]byte(line))
		}
	}
	return len(p), nil
}
