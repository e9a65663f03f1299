// Package applescript checks the AppleScript programs Mew sends to other
// apps, on any platform: inside `tell application`, a word the app's own
// dictionary defines means the app's term, not AppleScript's. The classic
// bite is `x & tab & y` inside `tell application "iTerm2"`: `tab` is then
// iTerm2's tab class, and the result carries the word "tab", not a tab
// character. Lint finds such words used to join text; Model evaluates the
// result of a script's joins the way osascript would, for tests.
package applescript

import (
	"fmt"
	"strings"
	"unicode"
)

// Dictionaries are the one-word classes of the apps Mew scripts, by bundle
// id, from each app's scripting dictionary (its .sdef: iTerm2's "iTerm2
// Terminology", Terminal's, Ghostty's macos/Ghostty.sdef, Chrome's). A
// class name standing alone is a type, printed as its name when joined to
// text; a property standing alone inside a tell to an object that has it
// is that property's value, so properties are not listed. Only single
// words matter: a multi-word term cannot pass for a separator.
var Dictionaries = map[string][]string{
	"com.googlecode.iterm2": {"application", "window", "tab", "session"},
	"com.apple.Terminal":    {"application", "window", "tab"},
	"com.mitchellh.ghostty": {"application", "window", "tab", "terminal"},
	"com.google.Chrome":     {"application", "window", "tab"},
}

// textConstants are AppleScript's own text constants, what a join means
// when no dictionary takes the word.
var textConstants = map[string]string{"tab": "\t", "linefeed": "\n", "return": "\r", "space": " ", "quote": `"`}

// Problem is one finding of Lint.
type Problem struct {
	Line int
	Text string
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Text) }

// token is one lexical item of a line: a word, a string literal (quoted),
// or one punctuation character.
type token struct {
	s    string
	word bool
	str  bool
}

// tokens splits one line, comments dropped.
func tokens(line string) []token {
	var out []token
	r := []rune(line)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case unicode.IsSpace(c) || c == '¬':
			i++
		case c == '-' && i+1 < len(r) && r[i+1] == '-', c == '#':
			return out
		case c == '"':
			j := i + 1
			for j < len(r) && r[j] != '"' {
				if r[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(r))
			out = append(out, token{s: string(r[i:end]), str: true})
			i = end
		case c == '|':
			j := i + 1
			for j < len(r) && r[j] != '|' {
				j++
			}
			end := min(j+1, len(r))
			// A |piped| identifier is the script's own, never a term.
			out = append(out, token{s: string(r[i:end])})
			i = end
		case unicode.IsLetter(c) || c == '_':
			j := i
			for j < len(r) && (unicode.IsLetter(r[j]) || unicode.IsDigit(r[j]) || r[j] == '_') {
				j++
			}
			out = append(out, token{s: string(r[i:j]), word: true})
			i = j
		default:
			out = append(out, token{s: string(c)})
			i++
		}
	}
	return out
}

// keywords are AppleScript's reserved words that can stand next to an
// operand without making it part of a longer term.
var keywords = map[string]bool{"return": true, "to": true, "set": true, "then": true, "else": true, "if": true, "is": true, "and": true, "or": true, "not": true, "as": true, "copy": true, "log": true}

// line is one line with the app whose terminology is in force there.
type line struct {
	n    int
	toks []token
	app  string // bundle id or name; "" outside any tell application
	from int    // the tokens before from are the tell clause itself
}

// scoped walks a script's lines, tracking `tell application ...` blocks
// and one-line `tell ... to ...` forms.
func scoped(script string) []line {
	var out []line
	var stack []string
	for i, raw := range strings.Split(script, "\n") {
		toks := tokens(raw)
		cur := ""
		if len(stack) > 0 {
			cur = stack[len(stack)-1]
		}
		l := line{n: i + 1, toks: toks, app: cur}
		switch {
		case len(toks) >= 2 && toks[0].s == "end" && toks[1].s == "tell":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case len(toks) >= 1 && toks[0].s == "tell":
			// Chains like `tell A to tell B to ...`: the last
			// `tell application` names the app.
			app, to := cur, -1
			for j := 0; j < len(toks); j++ {
				if toks[j].s == "tell" && j+2 < len(toks) && toks[j+1].s == "application" {
					k := j + 2
					if toks[k].s == "id" && k+1 < len(toks) {
						k++
					}
					if toks[k].str {
						app = strings.Trim(toks[k].s, `"`)
					}
				}
				if toks[j].s == "to" && to < 0 {
					to = j
				}
			}
			if to < 0 {
				stack = append(stack, app)
				l.app = app
				l.from = len(toks)
			} else {
				l.app = app
				// The tell clauses end at the last `to` of the chain.
				for j := len(toks) - 1; j >= 0; j-- {
					if toks[j].s == "to" && j > 0 && tellChain(toks[:j]) {
						l.from = j + 1
						break
					}
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// tellChain reports whether toks is `tell X [to tell Y ...]`.
func tellChain(toks []token) bool { return len(toks) > 0 && toks[0].s == "tell" }

// names maps the apps' names, as `tell application "Name"` says them, to
// their bundle ids.
var names = map[string]string{
	"iTerm2": "com.googlecode.iterm2", "iTerm": "com.googlecode.iterm2", "Terminal": "com.apple.Terminal",
	"Ghostty": "com.mitchellh.ghostty", "Google Chrome": "com.google.Chrome",
}

// defines reports whether app's dictionary (by bundle id or name) has
// word; an app not in Dictionaries is taken to define what every
// scriptable app with windows and tabs does.
func defines(app, word string) bool {
	if id, ok := names[app]; ok {
		app = id
	}
	dict, ok := Dictionaries[app]
	if !ok {
		dict = []string{"window", "tab"}
	}
	for _, w := range dict {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// bare reports whether toks[i] is a word standing alone (not part of a
// longer term, not `x of y`, not `y's x`).
func bare(toks []token, i int) bool {
	if !toks[i].word || keywords[toks[i].s] {
		return false
	}
	if i > 0 {
		p := toks[i-1]
		if p.s == "'" || p.s == "’" || p.word && !keywords[p.s] || p.s == "of" {
			return false
		}
	}
	if i+1 < len(toks) {
		n := toks[i+1]
		if n.word || n.s == "'" || n.s == "’" {
			return false
		}
	}
	return true
}

// Lint lists every bare word that the app addressed by the enclosing
// `tell application` defines and that the script uses to join text (an
// operand of &, or AppleScript's text item delimiters), where the script
// meant AppleScript's own constant or its own variable.
func Lint(script string) []Problem {
	var out []Problem
	for _, l := range scoped(script) {
		if l.app == "" {
			continue
		}
		dict := func(w string) bool { return defines(l.app, w) }
		t := l.toks
		for i := l.from; i < len(t); i++ {
			// Parentheses do not make a term text: (tab) is still the class.
			lo, hi := i-1, i+1
			for lo >= l.from && t[lo].s == "(" {
				lo--
			}
			for hi < len(t) && t[hi].s == ")" {
				hi++
			}
			joined := lo >= l.from && t[lo].s == "&" || hi < len(t) && t[hi].s == "&"
			delim := lo >= l.from+1 && t[lo].s == "to" && t[lo-1].s == "delimiters"
			if (joined || delim) && bare(t, i) && dict(t[i].s) {
				out = append(out, Problem{l.n, fmt.Sprintf("%q inside tell application %q is that app's term, not text: join with a separator outside the tell (e.g. linefeed) or return a list", t[i].s, l.app)})
			}
		}
	}
	return out
}

// Model is what osascript prints for the script's last `return a & b &
// ...`, given the values the app answers for its properties (props, by
// the property's words: "unique id", "tty") and the script's `set X to
// Y` lines: each operand is a string literal, a variable, a property, or
// an AppleScript text constant, which inside the tell of an app that
// defines the same word is that app's term, printed as its name. It is a
// model of the joins Mew's focus scripts make, not an interpreter.
func Model(script string, props map[string]string) (string, error) {
	vars := map[string]string{}
	var result string
	var found bool
	for _, l := range scoped(script) {
		t := l.toks[l.from:]
		// set X to <operand>
		if len(t) >= 4 && t[0].s == "set" && t[2].s == "to" {
			if v, ok := operand(t[3:], l.app, props, vars); ok {
				vars[strings.ToLower(t[1].s)] = v
			}
			continue
		}
		for i := 0; i < len(t); i++ {
			if t[i].s != "return" {
				continue
			}
			var b strings.Builder
			for _, part := range splitJoin(t[i+1:]) {
				v, ok := operand(part, l.app, props, vars)
				if !ok {
					return "", fmt.Errorf("line %d: cannot model %q", l.n, join(part))
				}
				b.WriteString(v)
			}
			result, found = b.String(), true
			break
		}
	}
	if !found {
		return "", fmt.Errorf("no return to model")
	}
	return result + "\n", nil // osascript ends its output with a newline
}

// splitJoin splits an expression on its top-level &.
func splitJoin(t []token) [][]token {
	var out [][]token
	depth, start := 0, 0
	for i, x := range t {
		switch x.s {
		case "(":
			depth++
		case ")":
			depth--
		case "&":
			if depth == 0 {
				out = append(out, t[start:i])
				start = i + 1
			}
		}
	}
	return append(out, t[start:])
}

func join(t []token) string {
	var w []string
	for _, x := range t {
		w = append(w, x.s)
	}
	return strings.Join(w, " ")
}

// operand evaluates one operand of a join.
func operand(t []token, app string, props, vars map[string]string) (string, bool) {
	for len(t) >= 2 && t[0].s == "(" && t[len(t)-1].s == ")" {
		t = t[1 : len(t)-1]
	}
	if len(t) == 0 {
		return "", false
	}
	if len(t) == 1 && t[0].str {
		return strings.Trim(t[0].s, `"`), true
	}
	words := strings.ToLower(join(t))
	if v, ok := vars[words]; ok {
		return v, true
	}
	if len(t) == 1 && t[0].word {
		if app != "" && defines(app, t[0].s) {
			return t[0].s, true // the app's class or property, as text: its name
		}
		if c, ok := textConstants[words]; ok {
			return c, true
		}
	}
	// A property of the tell's target, or of an object (`tty of selected
	// tab of front window`): the app's answer for that property.
	prop, _, _ := strings.Cut(words, " of ")
	if v, ok := props[prop]; ok && app != "" {
		return v, true
	}
	return "", false
}
