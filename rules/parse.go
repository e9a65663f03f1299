package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/mew-dev/mew/session"
)

// fileSpec is the layout of a rules file. Every key is known: an unknown
// one (a typo) is an error, never silently ignored.
type fileSpec struct {
	Agent string `toml:"agent"`
	// Replace, in an override file, drops the embedded rules of the agent
	// instead of trying the file's rules before them.
	Replace bool      `toml:"replace"`
	Sniff   sniffSpec `toml:"sniff"`
	TurnEnd []Pattern `toml:"turn_end"`
	// TurnEndAlways: see Set.TurnEndAlways.
	TurnEndAlways bool `toml:"turn_end_always"`
	// InputBox is where the agent draws its input box (see Set.InputBox).
	InputBox *Pattern `toml:"input_box"`
	// ReportSettle is a duration ("1s"); see Set.ReportSettle.
	ReportSettle string `toml:"report_settle"`
	// ReportFinal: see Set.ReportFinal.
	ReportFinal bool        `toml:"report_final"`
	Rules       []ruleSpec  `toml:"rule"`
	Answer      *answerSpec `toml:"answer"`
}

type sniffSpec struct {
	Commands []string  `toml:"commands"`
	Argv     []Pattern `toml:"argv"`
	Screen   []Pattern `toml:"screen"`
	Title    []Pattern `toml:"title"`
	Terminal bool      `toml:"terminal"`
}

type ruleSpec struct {
	State      string   `toml:"state"`
	Reason     string   `toml:"reason"`
	Screen     *Pattern `toml:"screen"`
	Title      *Pattern `toml:"title"`
	AgentState *Pattern `toml:"agent_state"`
	Last       int      `toml:"last"`
	Turn       string   `toml:"turn"`
	// Note says why the rule exists (what was measured); not used.
	Note string `toml:"note"`
}

// A report_settle below the default would show a done the screen was about
// to correct; one over a few seconds would hold a finished turn working
// that long wherever the screen is wrong.
const (
	minReportSettle = session.ScreenSettle
	maxReportSettle = 3 * time.Second
)

// FileError is a rules file refused: the file, the line (0 when the
// problem is the whole file) and the reason.
type FileError struct {
	File   string
	Line   int
	Reason string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

// maxFileErrors bounds what one refused file reports.
const maxFileErrors = 20

// Parse reads one rules file. name is how errors name the file.
func Parse(name string, data []byte) (*Set, bool, error) {
	fail := func(line int, format string, args ...any) (*Set, bool, error) {
		return nil, false, &FileError{File: name, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	if len(data) > maxFile {
		return fail(0, "%d bytes is over the %d byte limit", len(data), maxFile)
	}
	var spec fileSpec
	md, err := toml.Decode(string(data), &spec)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fail(pe.Position.Line, "%s", tomlMessage(pe))
		}
		return fail(lineOfTOMLError(err.Error()), "%s", stripTOMLPrefix(err.Error()))
	}
	if len(spec.Rules) > maxRules {
		return fail(0, "%d rules is over the limit of %d", len(spec.Rules), maxRules)
	}
	// Past the TOML itself, every mistake of the file is said at once (a
	// person fixing a file should not learn them one run at a time).
	var errs []error
	bad := func(line int, format string, args ...any) {
		if len(errs) < maxFileErrors {
			errs = append(errs, &FileError{File: name, Line: line, Reason: fmt.Sprintf(format, args...)})
		}
	}
	for _, k := range md.Undecoded() {
		bad(lineOfKey(string(data), k.String()), "unknown key %q", k.String())
	}
	if !validAgentName(spec.Agent) {
		bad(lineOfKey(string(data), "agent"), "agent must be a lower-case name (a-z, 0-9, -), got %q", spec.Agent)
	}
	set := &Set{Agent: spec.Agent, Origin: name}
	for _, c := range spec.Sniff.Commands {
		if c == "" || strings.ContainsAny(c, "/\x00") {
			bad(lineOfKey(string(data), "sniff.commands"), "sniff.commands: %q is not a process name", c)
		}
		set.Sniff.Commands = append(set.Sniff.Commands, c)
	}
	set.Sniff.Argv = ptrs(spec.Sniff.Argv)
	set.Sniff.Screen = ptrs(spec.Sniff.Screen)
	set.Sniff.Title = ptrs(spec.Sniff.Title)
	set.Sniff.Terminal = spec.Sniff.Terminal
	set.TurnEnd = ptrs(spec.TurnEnd)
	if spec.TurnEndAlways && len(set.TurnEnd) == 0 {
		return fail(lineOfKey(string(data), "turn_end_always"), "turn_end_always needs turn_end patterns")
	}
	set.TurnEndAlways = spec.TurnEndAlways
	set.InputBox = spec.InputBox
	if spec.ReportSettle != "" {
		d, err := time.ParseDuration(spec.ReportSettle)
		if err != nil || d < minReportSettle || d > maxReportSettle {
			bad(lineOfKey(string(data), "report_settle"), "report_settle must be a duration from %v to %v, got %q", minReportSettle, maxReportSettle, spec.ReportSettle)
		}
		set.ReportSettle = d
	}
	if spec.ReportFinal && spec.ReportSettle != "" {
		bad(lineOfKey(string(data), "report_final"), "report_final and report_settle exclude each other: a final report waits for no screen")
	}
	set.ReportFinal = spec.ReportFinal
	if set.Answer, err = spec.Answer.compile(); err != nil {
		line := lineOfKey(string(data), "answer")
		var ae *answerError
		if choices := tableLines(string(data), "answer.choice"); errors.As(err, &ae) && ae.choice > 0 && ae.choice <= len(choices) {
			line = choices[ae.choice-1]
		} else if line == 0 && len(choices) > 0 {
			line = choices[0]
		}
		bad(line, "%v", err)
	}

	ruleLines := tableLines(string(data), "rule")
	lineOfRule := func(i int) int {
		if i < len(ruleLines) {
			return ruleLines[i]
		}
		return 0
	}
	for i, r := range spec.Rules {
		rule, err := r.compile()
		if err != nil {
			bad(lineOfRule(i), "rule %d: %v", i+1, err)
		}
		set.Rules = append(set.Rules, rule)
	}
	switch len(errs) {
	case 0:
	case 1:
		return nil, false, errs[0] // the *FileError itself
	default:
		return nil, false, errors.Join(errs...)
	}
	// What classifying with the file costs: its patterns in file order,
	// each with the line it is refused at.
	type placed struct {
		p    *Pattern
		line int
	}
	var all []placed
	add := func(line int, ps ...*Pattern) {
		for _, p := range ps {
			if p != nil {
				all = append(all, placed{p, line})
			}
		}
	}
	add(lineOfKey(string(data), "turn_end"), set.TurnEnd...)
	add(lineOfKey(string(data), "sniff.argv"), set.Sniff.Argv...)
	add(lineOfKey(string(data), "sniff.screen"), set.Sniff.Screen...)
	add(lineOfKey(string(data), "sniff.title"), set.Sniff.Title...)
	if a := set.Answer; a != nil {
		add(lineOfKey(string(data), "answer"), a.Option, a.Skip, a.Top)
	}
	for i, r := range spec.Rules {
		add(lineOfRule(i), r.Screen, r.Title, r.AgentState)
	}
	size := 0
	for n, pl := range all {
		if n == maxPatterns {
			return fail(pl.line, "more than %d patterns in one file", maxPatterns)
		}
		if size += pl.p.size; size > maxFileProgram {
			return fail(pl.line, "the patterns up to here compile to %d instructions, over the limit of %d for one file: make them simpler or fewer", size, maxFileProgram)
		}
	}
	set.order()
	return set, spec.Replace, nil
}

func (r ruleSpec) compile() (Rule, error) {
	out := Rule{State: r.State, Screen: r.Screen, Title: r.Title, AgentState: r.AgentState, Last: r.Last}
	if !slices.Contains(Precedence, r.State) {
		return out, fmt.Errorf("state must be one of %s, got %q", strings.Join(Precedence, ", "), r.State)
	}
	if r.Screen == nil && r.Title == nil && r.AgentState == nil {
		return out, fmt.Errorf("needs at least one of screen, title, agent_state")
	}
	if r.Last < 0 || r.Last > 1000 {
		return out, fmt.Errorf("last must be between 0 and 1000, got %d", r.Last)
	}
	switch session.Reason(r.Reason) {
	case session.ReasonNone:
		if r.State == session.ScreenBlocked {
			out.Reason = session.ReasonInput
		}
	case session.ReasonPermission, session.ReasonQuestion, session.ReasonPlan, session.ReasonInput:
		if r.State != session.ScreenBlocked {
			return out, fmt.Errorf("reason is for blocked rules only")
		}
		out.Reason = session.Reason(r.Reason)
	default:
		return out, fmt.Errorf("reason must be permission, question, plan or input, got %q", r.Reason)
	}
	switch r.Turn {
	case "":
	case "interrupted":
		if r.State != session.ScreenIdle {
			return out, fmt.Errorf(`turn = "interrupted" is for idle rules only`)
		}
		out.Interrupted = true
	default:
		return out, fmt.Errorf(`turn must be "interrupted", got %q`, r.Turn)
	}
	return out, nil
}

// order sorts the rules by Precedence (stable: file order within a state)
// and names them.
func (s *Set) order() {
	slices.SortStableFunc(s.Rules, func(a, b Rule) int {
		return slices.Index(Precedence, a.State) - slices.Index(Precedence, b.State)
	})
	count := map[string]int{}
	for i := range s.Rules {
		r := &s.Rules[i]
		count[r.State]++
		r.ID = s.Agent + "/" + r.State + "#" + strconv.Itoa(count[r.State])
	}
}

func ptrs(ps []Pattern) []*Pattern {
	out := make([]*Pattern, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out
}

// validAgentName: agents name files and show in the UI.
func validAgentName(s string) bool {
	if len(s) == 0 || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func tomlMessage(pe toml.ParseError) string {
	msg := pe.Message
	if pe.LastKey != "" && !strings.Contains(msg, pe.LastKey) {
		msg = pe.LastKey + ": " + msg
	}
	return msg
}

// lineOfTOMLError reads the line out of the decoder's "toml: line N (last
// key …)" messages for type mismatches.
func lineOfTOMLError(msg string) int {
	rest, ok := strings.CutPrefix(msg, "toml: line ")
	if !ok {
		return 0
	}
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func stripTOMLPrefix(msg string) string {
	msg = strings.TrimPrefix(msg, "toml: ")
	if strings.HasPrefix(msg, "line ") {
		if i := strings.Index(msg, "): "); i >= 0 {
			msg = msg[i+3:]
		}
	}
	return msg
}

// lineOfKey finds the first line that defines a dotted key ("sniff.argv",
// "rule.colour"), following table headers; 0 when not found. The decoder
// reports unknown keys without a position.
func lineOfKey(doc, key string) int {
	table := ""
	for i, line := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "[["):
			table = strings.TrimSpace(strings.Trim(strings.SplitN(l, "]]", 2)[0], "[ "))
			if table == key {
				return i + 1
			}
		case strings.HasPrefix(l, "["):
			table = strings.TrimSpace(strings.Trim(strings.SplitN(l, "]", 2)[0], "[ "))
			if table == key {
				return i + 1
			}
		default:
			name, _, ok := strings.Cut(l, "=")
			if !ok || strings.HasPrefix(l, "#") {
				continue
			}
			full := strings.Trim(strings.TrimSpace(name), `"'`)
			if table != "" {
				full = table + "." + full
			}
			if full == key {
				return i + 1
			}
		}
	}
	return 0
}

// tableLines lists the lines of each [[name]] header, in order.
func tableLines(doc, name string) []int {
	var out []int
	for i, line := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[[") && strings.TrimSpace(strings.Trim(strings.SplitN(l, "]]", 2)[0], "[ ")) == name {
			out = append(out, i+1)
		}
	}
	return out
}
