package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/terminal"
)

// The AppleScript programs an iTerm2 answer runs: iTerm2's session loop
// (terminal.ITermScript, shared with jump) with what to do with the
// session. The session id and the keys reach them as argv (passed to
// `osascript -` as separate arguments), never spliced into script text.
// Neither launches iTerm2 when it is not running.
var (
	// scriptITermRead prints "ok", the session's name (its title) and
	// its visible contents, one per line, for the session whose unique
	// ID is item 1 of argv; or a word saying why not.
	scriptITermRead = terminal.ITermScript("unique ID",
		[]string{`return "ok" & linefeed & (name of s) & linefeed & (contents of s)`})
	// scriptITermWrite types item 2 of argv into the session whose
	// unique ID is item 1, as if typed (no newline added).
	scriptITermWrite = terminal.ITermScript("unique ID",
		[]string{"tell s to write text typed newline no", `return "ok"`},
		"set typed to item 2 of argv")
)

// iTermStepTimeout bounds one osascript call (the Automation prompt is
// the jump's to show: an answer that meets it fails and says so).
const iTermStepTimeout = 5 * time.Second

// ITermTerminal is an iTerm2 session, by its unique id, read and typed
// into through iTerm2's AppleScript (macOS only; type-checked elsewhere).
type ITermTerminal struct {
	Session string // GUID, checked by NewITermTerminal
	// Run runs osascript with the script on stdin and args as argv; nil:
	// runOsascript.
	Run func(ctx context.Context, script string, args ...string) (string, error)
}

// NewITermTerminal checks the session id.
func NewITermTerminal(guid string) (*ITermTerminal, error) {
	if !terminal.ValidITermSession(guid) {
		return nil, fmt.Errorf("%q is not an iTerm2 session id", guid)
	}
	return &ITermTerminal{Session: guid}, nil
}

func (t *ITermTerminal) run(ctx context.Context, script string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, iTermStepTimeout)
	defer cancel()
	if t.Run != nil {
		return t.Run(ctx, script, args...)
	}
	return runOsascript(ctx, script, args...)
}

// Read implements Terminal.
func (t *ITermTerminal) Read(ctx context.Context) (rules.Frame, error) {
	out, err := t.run(ctx, scriptITermRead, t.Session)
	if err != nil {
		return rules.Frame{}, err
	}
	status, rest, _ := strings.Cut(out, "\n")
	if status != "ok" {
		return rules.Frame{}, fmt.Errorf("iTerm2: %s", text.OneLine(status, 40))
	}
	title, contents, _ := strings.Cut(rest, "\n")
	rows := strings.Split(strings.ReplaceAll(strings.TrimRight(contents, "\n"), "\r", ""), "\n")
	return rules.Frame{Rows: rows, Title: title}, nil
}

// KeyBytes turns keys into the bytes a terminal sends for them
// (rules.KeyBytes: the `mew run` wrapper types the same).
func KeyBytes(keys []string) (string, error) { return rules.KeyBytes(keys) }

// Type implements Terminal.
func (t *ITermTerminal) Type(ctx context.Context, live Live) error {
	typed, err := KeyBytes(live.Keys)
	if err != nil {
		return err
	}
	out, err := t.run(ctx, scriptITermWrite, t.Session, typed)
	if err != nil {
		return err
	}
	if s := strings.TrimSpace(out); s != "ok" {
		return fmt.Errorf("iTerm2: %s", text.OneLine(s, 40))
	}
	return nil
}

// runOsascript runs `osascript -` with script on stdin and args as its
// argv: no shell, no text spliced into the script (terminal.RunProcess: killed
// with its process group when ctx ends).
func runOsascript(ctx context.Context, script string, args ...string) (string, error) {
	out, err := terminal.RunProcess(ctx, append([]string{terminal.OsascriptPath, "-"}, args...), script, nil)
	switch {
	case err == nil:
		return out, nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("osascript gave no answer within %v (is macOS asking whether Mew may control iTerm2?)", iTermStepTimeout)
	case strings.Contains(err.Error(), "-1743"): // errAEEventNotPermitted
		return "", errors.New("Mew may not control iTerm2: allow it in System Settings › Privacy & Security › Automation")
	}
	return "", errors.New(text.OneLine(err.Error(), 240)) // osascript's words
}
