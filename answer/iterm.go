package answer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/terminal"
	"github.com/mew-dev/mew/terminal/termid"
)

// The AppleScript programs an iTerm2 answer runs: iTerm2's session loop
// (terminal.ITermScript, shared with jump) with what to do with the
// session. The session id and the keys reach them as argv (passed to
// `osascript -` as separate arguments), never spliced into script text.
// Neither launches iTerm2 when it is not running.
var (
	// scriptITermRead prints "ok", the session's height in rows, its name
	// (its title) and its text, one per line, for the session whose
	// unique ID is item 1 of argv; or a word saying why not. The text is
	// the session's `text` (its visible contents, per iTerm2's
	// dictionary), else, on an iTerm2 without it, `contents`, which can be
	// the whole scrollback, oldest first, then the screen: either way the
	// screen is its last rows lines (ScreenRows), and the rows and the
	// name come first so that the runner's cap (the head and the tail of
	// a long output) keeps both them and the screen.
	scriptITermRead = terminal.ITermScript("unique ID", []string{
		"set c to missing value",
		"try",
		"\tset c to text of s",
		"end try",
		"if c is missing value then set c to contents of s",
		`return "ok" & linefeed & (rows of s) & linefeed & (name of s) & linefeed & c`,
	})
	// scriptITermWrite types item 2 of argv into the session whose
	// unique ID is item 1, as if typed (no newline added).
	scriptITermWrite = terminal.ITermScript("unique ID",
		[]string{"tell s to write text typed newline no", `return "ok"`},
		"set typed to item 2 of argv")
)

// iTermPoll is how often an answer reads iTerm2 while waiting for the
// prompt to go (Poll is 20 ms): each read is an osascript process and an
// Apple Event that copies the session's text, and 100 of them in 2 s kept
// iTerm2 and osascript busy for nothing.
const iTermPoll = 200 * time.Millisecond

// MinPoll implements SlowReader.
func (t *ITermTerminal) MinPoll() time.Duration { return iTermPoll }

// iTermStepTimeout bounds one osascript call once iTerm2 took Mew's Apple
// Events; iTermPromptTimeout the first one, which may wait for the person
// to answer macOS's Automation prompt (jumps use the reveal URL, with no
// Apple Events, so an answer's read is often Mew's first event to iTerm2;
// killing it after 5 s made the first answer always fail).
const (
	iTermStepTimeout   = 5 * time.Second
	iTermPromptTimeout = 90 * time.Second
)

// terminal.AppleEvents (shared with the jump runner and the focus check)
// has iTermBundle once an osascript call to iTerm2 went through in this
// process, by an answer or a jump: no Automation prompt can be up for it.

// iTermTimeout is the bound of the next call.
func iTermTimeout(allowed bool) time.Duration {
	if allowed {
		return iTermStepTimeout
	}
	return iTermPromptTimeout
}

// maxScreenRows bounds the rows a read keeps (a session reporting a
// height it cannot have).
const maxScreenRows = 500

// ScreenRows is the screen of an iTerm2 session from its contents (the
// scrollback and the screen, oldest first) and its height: the last rows
// lines, without the blank rows below the last text. A height that is not
// a number keeps the last maxScreenRows lines.
func ScreenRows(contents string, rows int) []string {
	if rows <= 0 || rows > maxScreenRows {
		rows = maxScreenRows
	}
	// The last row's end is not a row (blank rows above it are: they are
	// the screen's).
	contents = strings.TrimSuffix(strings.TrimSuffix(contents, "\n"), "\r")
	// Only the end is split: a 100k-line history costs no 100k strings.
	// start ends at the newline before the first row kept (-1: all).
	start := len(contents)
	for n := 0; n < rows && start >= 0; n++ {
		start = strings.LastIndexByte(contents[:start], '\n')
	}
	out := strings.Split(strings.ReplaceAll(contents[start+1:], "\r", ""), "\n")
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

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
	if !termid.ValidITermSession(guid) {
		return nil, fmt.Errorf("%q is not an iTerm2 session id", guid)
	}
	return &ITermTerminal{Session: guid}, nil
}

func (t *ITermTerminal) run(ctx context.Context, script string, args ...string) (string, error) {
	timeout := iTermTimeout(terminal.AppleEvents.Has(iTermBundle))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out string
	var err error
	if t.Run != nil {
		out, err = t.Run(ctx, script, args...)
	} else {
		out, err = runOsascript(ctx, script, args...)
	}
	switch {
	case err == nil && (strings.HasPrefix(out, "ok") || strings.HasPrefix(out, "notfound")):
		// Both come from inside `tell application`: its events went
		// through ("notrunning" is said before any event is sent).
		terminal.AppleEvents.Add(iTermBundle)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("osascript gave no answer within %v (is macOS asking whether Mew may control iTerm2?)", timeout)
	}
	return out, err
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
	height, rest, _ := strings.Cut(rest, "\n")
	title, contents, _ := strings.Cut(rest, "\n")
	rows, err := strconv.Atoi(strings.TrimSpace(height))
	if err != nil {
		rows = 0 // ScreenRows keeps its bound
	}
	return rules.Frame{Rows: ScreenRows(contents, rows), Title: title}, nil
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
	// The locale forced: the screen's text is parsed, and an app started
	// by launchd has no LANG.
	out, err := terminal.RunProcess(ctx, append([]string{terminal.OsascriptPath, "-"}, args...), script, terminal.LocaleEnv())
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		return "", ctx.Err()
	case strings.Contains(err.Error(), "-1743"): // errAEEventNotPermitted
		return "", errors.New(terminal.AutomationRefused("iTerm2"))
	}
	return "", errors.New(text.OneLine(err.Error(), 240)) // osascript's words
}
