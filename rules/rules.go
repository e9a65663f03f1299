// Package rules reads an agent's state off its screen with rules that are
// data: one TOML file per agent, embedded defaults (defaults/*.toml) plus
// the person's overrides in $MEW_HOME/rules/<agent>.toml.
//
// A rule names a state and the patterns that show it: RE2 regular
// expressions (linear time, no back-references) over the screen rows, the
// terminal title, or the state an agent announces with its own escape
// sequence. Rules are tried by state, most decisive first (exited, blocked,
// working, failed, idle), and in file order within a state; the first match
// wins. Nothing in a rules file can run a program: the format has patterns
// and names only.
package rules

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Precedence is the order in which states are tried: a dialog that waits
// on the person outranks a spinner, a spinner outranks an old error line
// still on the screen, and anything outranks an idle prompt.
var Precedence = []string{
	session.ScreenExited, session.ScreenBlocked, session.ScreenWorking,
	session.ScreenFailed, session.ScreenIdle,
}

// Limits that keep a rules file, and classifying a screen with it, small.
// RE2 runs in time linear in the screen, but times the size of the
// compiled program: 200 patterns like (\w+\s*){1000}x (6000 instructions
// each) cost 24 s of CPU a classification. The embedded files' largest
// pattern is 75 instructions, their largest file about 500.
const (
	maxPattern  = 1000 // bytes of one pattern
	maxProgram  = 1000 // compiled instructions of one pattern
	maxRules    = 200  // rules in one file
	maxPatterns = 300  // patterns in one file
	// maxFileProgram bounds the instructions of all of a file's patterns:
	// a classification with them all costs ~70 ms at worst (against a
	// full 120x32 screen); the embedded files use a quarter of it.
	maxFileProgram = 2000
	maxFile        = 256 << 10
)

// Frame is what classification reads: one moment of a terminal.
type Frame struct {
	Rows  []string // the visible rows
	Title string   // the terminal title
	// AgentState is what the agent announced with its own escape sequence
	// (Codex: ESC ] 7501 ; state=…), "" where none is seen.
	AgentState string
}

// Result is the classification of one frame.
type Result struct {
	State  string         // one of the session.Screen* states
	Reason session.Reason // when blocked
	Rule   string         // "<agent>/<state>#<n>", "" when nothing matched
	// TurnEnded: a finished-turn line is on the screen and no rule said the
	// turn was interrupted.
	TurnEnded bool
	// Interrupted: an idle rule marked turn = "interrupted" matched.
	Interrupted bool
	// Match is the screen text the deciding rule matched ("" for a title or
	// agent-state rule).
	Match string
	// MatchRow is the whole row the match starts on ("" likewise).
	MatchRow string
}

// Set is the rules of one agent.
type Set struct {
	Agent   string
	Origin  string // where the rules came from: "embedded" or a file path
	Sniff   Sniff
	TurnEnd []*Pattern
	// TurnEndAlways: the agent draws a TurnEnd line after every turn that
	// ran to its end (Codex's "Worked for <1s" even for the shortest), so a
	// working frame followed by an idle one without it was no turn (Codex
	// spins its title for a moment at start-up, before any turn).
	TurnEndAlways bool
	// InputBox matches the agent's input box. An agent draws its dialogs
	// below its input box or in place of it, never above: a blocked rule's
	// screen pattern reads only the rows below the last row InputBox
	// matches, so a reply in the transcript that quotes a dialog ("Do you
	// want to proceed?") is not a prompt. nil: blocked rules read the whole
	// screen.
	InputBox *Pattern
	// ReportSettle is how long after the agent reports a turn's end its
	// screen may still show the turn running before it draws how the turn
	// ended (session.ScreenState.ReportSettle); 0: session.ScreenSettle.
	ReportSettle time.Duration
	// ReportFinal: the agent's own reports (its hooks, its plugin) tell a
	// stopped or failed turn from a finished one, so a turn they say is
	// done is shown at once, not held while the screen still draws it
	// running (session.ScreenState.ReportFinal). Declared only where its
	// hooks-only conformance walk shows no done on the way to idle or
	// failed.
	ReportFinal bool
	// Rules in trial order (by Precedence, then file order).
	Rules []Rule
	// Answer says how to answer the agent's dialogs; nil: Mew does not
	// type into this agent's terminal.
	Answer *Answer
}

// Rule is one way a state shows on a screen. Every pattern it has must
// match.
type Rule struct {
	ID         string // "<agent>/<state>#<n>"
	State      string
	Reason     session.Reason
	Screen     *Pattern
	Title      *Pattern
	AgentState *Pattern
	// Last limits Screen to the last Last non-blank rows (0: all rows).
	Last int
	// Interrupted marks an idle screen that shows the person stopped the
	// turn: not a finished turn.
	Interrupted bool
}

// Sniff says how to recognise the agent on a terminal.
type Sniff struct {
	Commands []string   // process names (or argv[0] base names)
	Argv     []*Pattern // patterns over the whole command line
	Screen   []*Pattern // screen markers, when the process says nothing
	Title    []*Pattern // title markers
	// Terminal: a process of the agent is a session only with a terminal;
	// one without is a daemon of the agent's (Codex's app server, Cline's
	// hub), not a session of its own.
	Terminal bool
}

// Pattern is a compiled RE2 expression. Patterns match line by line: ^ and
// $ are the start and end of a row ((?m) is always on).
type Pattern struct {
	re   *regexp.Regexp
	src  string
	size int // compiled instructions
}

// UnmarshalText compiles a pattern from a rules file; the TOML decoder
// reports its error with the line of the key.
func (p *Pattern) UnmarshalText(b []byte) error {
	src := string(b)
	if len(src) == 0 {
		return fmt.Errorf("empty pattern")
	}
	if len(src) > maxPattern {
		return fmt.Errorf("pattern of %d bytes is over the %d byte limit", len(src), maxPattern)
	}
	re, err := regexp.Compile("(?m)" + src)
	if err != nil {
		// The error quotes the expression compiled, with the (?m) Mew adds.
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		msg = strings.Replace(msg, "`(?m)", "`", 1)
		return fmt.Errorf("bad pattern %q: %s", text.Clip(src, 60), msg)
	}
	size, err := programSize("(?m)" + src)
	if err != nil {
		return fmt.Errorf("bad pattern %q: %v", text.Clip(src, 60), err)
	}
	if size > maxProgram {
		return fmt.Errorf("pattern %q compiles to %d instructions, over the limit of %d: make it simpler", text.Clip(src, 60), size, maxProgram)
	}
	p.re, p.src, p.size = re, src, size
	return nil
}

// programSize is how many instructions RE2 compiles src to (what
// matching it costs per byte of the screen, at worst).
func programSize(src string) (int, error) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return 0, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, err
	}
	return len(prog.Inst), nil
}

// String is the pattern as written.
func (p *Pattern) String() string { return p.src }

// MatchString reports whether the pattern matches s.
func (p *Pattern) MatchString(s string) bool { return p.re.MatchString(s) }

// Classify returns the state a frame shows. A frame no rule matches is
// unknown (a blank or half-drawn screen): callers keep their previous
// state.
func (s *Set) Classify(f Frame) Result {
	return s.classify(f, func(string) bool { return true })
}

// ClassifyWithout is Classify with the rules of one state left out (the
// screen tracker uses it to look past an error line left from an earlier
// turn).
func (s *Set) ClassifyWithout(f Frame, state string) Result {
	return s.classify(f, func(st string) bool { return st != state })
}

// ClassifyOnly tries the rules of one state only.
func (s *Set) ClassifyOnly(f Frame, state string) Result {
	return s.classify(f, func(st string) bool { return st == state })
}

func (s *Set) classify(f Frame, use func(state string) bool) Result {
	text := strings.Join(f.Rows, "\n")
	var tail string
	tailN := -1
	dialogRows := f.Rows
	dialogDone := false
	for i := range s.Rules {
		r := &s.Rules[i]
		if !use(r.State) {
			continue
		}
		screen := text
		switch {
		case r.Screen == nil:
		case r.State == session.ScreenBlocked && s.InputBox != nil:
			if !dialogDone {
				dialogRows, dialogDone = s.belowInputBox(f.Rows, text), true
			}
			if r.Last > 0 {
				screen = lastRows(dialogRows, r.Last)
			} else {
				screen = strings.Join(dialogRows, "\n")
			}
		case r.Last > 0:
			if tailN != r.Last {
				tail, tailN = lastRows(f.Rows, r.Last), r.Last
			}
			screen = tail
		}
		match, ok := r.matches(screen, f)
		if !ok {
			continue
		}
		res := Result{State: r.State, Reason: r.Reason, Rule: r.ID, Match: match, MatchRow: matchRow(f.Rows, match), Interrupted: r.Interrupted}
		if r.State == session.ScreenIdle && !r.Interrupted {
			res.TurnEnded = s.turnEnded(text)
		}
		return res
	}
	return Result{State: session.ScreenUnknown}
}

// belowInputBox is the rows below the last row the input box pattern
// matches (all rows when it matches none): where the agent draws a dialog.
func (s *Set) belowInputBox(rows []string, text string) []string {
	locs := s.InputBox.re.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return rows
	}
	end := locs[len(locs)-1][1]
	// The row the match ends on is part of the box; its rows below are not.
	row := strings.Count(text[:end], "\n")
	if end > 0 && text[end-1] == '\n' {
		row-- // the match took the row's newline: it ended on the row above
	}
	if row+1 >= len(rows) {
		return nil
	}
	return rows[row+1:]
}

// turnEnded reports a finished-turn line ("✻ Worked for 2s") on the screen.
func (s *Set) turnEnded(text string) bool {
	for _, p := range s.TurnEnd {
		if p.MatchString(text) {
			return true
		}
	}
	return false
}

func (r *Rule) matches(screen string, f Frame) (string, bool) {
	if r.Title != nil && !r.Title.MatchString(f.Title) {
		return "", false
	}
	if r.AgentState != nil && (f.AgentState == "" || !r.AgentState.MatchString(f.AgentState)) {
		return "", false
	}
	if r.Screen == nil {
		return "", true
	}
	loc := r.Screen.re.FindStringIndex(screen)
	if loc == nil {
		return "", false
	}
	return screen[loc[0]:loc[1]], true
}

// matchRow finds the row holding the start of match.
func matchRow(rows []string, match string) string {
	if match == "" {
		return ""
	}
	first, _, _ := strings.Cut(match, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.Contains(rows[i], first) {
			return rows[i]
		}
	}
	return ""
}

// lastRows joins the last n non-blank rows.
func lastRows(rows []string, n int) string {
	start := len(rows)
	for kept := 0; start > 0 && kept < n; {
		start--
		if strings.TrimSpace(rows[start]) != "" {
			kept++
		}
	}
	return strings.Join(rows[start:], "\n")
}

// Blank reports whether a frame has nothing drawn: a terminal being
// cleared or not yet painted.
func Blank(f Frame) bool {
	for _, r := range f.Rows {
		if strings.TrimSpace(r) != "" {
			return false
		}
	}
	return true
}
