package app

import (
	"fmt"
	"strings"

	"github.com/mew-dev/mew/internal/logfile"
)

// logLines is how much of mew.log Show Log shows.
const logLines = 40

// logDialog is the Show Log message: the end of the app's log, where it
// is, and how to see all of it.
func logDialog(path string, lines []string, err error) dialog {
	switch {
	case err != nil:
		return dialog{Title: "Mew's log", Text: fmt.Sprintf("%s cannot be read: %v", path, err), Failed: true}
	case len(lines) == 0:
		return dialog{Title: "Mew's log", Text: path + " is empty: nothing went wrong yet."}
	}
	return dialog{Title: "Mew's log", Text: fmt.Sprintf("The last %d lines of %s (all of it: `open -t %s`):\n\n%s",
		len(lines), path, path, strings.Join(lines, "\n"))}
}

// readLogDialog reads the log's end for Show Log (a small file read: the
// main thread may do it).
func readLogDialog(mewHome string) dialog {
	path := logfile.PathIn(mewHome)
	lines, err := logfile.Tail(path, logLines)
	return logDialog(path, lines, err)
}
