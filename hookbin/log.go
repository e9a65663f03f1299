package hookbin

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/internal/text"
)

// MaxLogSize caps mew-hook.log; past it the log moves to mew-hook.log.1 (the
// previous .1 is dropped), so the log never grows without bound.
const MaxLogSize = 256 << 10

// Log appends lines to the hook's log file. A line the log cannot take (a
// full disk, a read-only folder) goes to Fallback, the stderr the agent
// gave the hook (exit 0 all the same: the agent may show it, never acts
// on it); with no Fallback it is lost.
type Log struct {
	Path     string
	Now      func() time.Time // for tests; time.Now when nil
	Fallback io.Writer
}

// Printf writes one line: time, session id, message.
func (l *Log) Printf(sessionID, format string, args ...any) {
	if l == nil || l.Path == "" {
		return
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	// Messages may quote the payload (a parse error shows where): kept
	// inert for whoever reads the log in a terminal.
	msg := text.Printable(fmt.Sprintf(format, args...))
	line := fmt.Sprintf("%s pid=%d session=%s %s\n", now().UTC().Format(time.RFC3339Nano), os.Getpid(), text.Printable(sessionID), msg)
	if fi, err := os.Stat(l.Path); err == nil && fi.Size()+int64(len(line)) > MaxLogSize {
		_ = os.Rename(l.Path, l.Path+".1")
	}
	_ = os.MkdirAll(filepath.Dir(l.Path), 0o700)
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		// One write per line: O_APPEND keeps concurrent hooks' lines whole.
		_, err = f.Write([]byte(line))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && l.Fallback != nil {
		_, _ = io.WriteString(l.Fallback, "mew-hook: cannot write "+text.Printable(l.Path)+" ("+text.Printable(err.Error())+"): "+line)
	}
}
