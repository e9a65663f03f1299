package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mew-dev/mew/internal/text"
)

// Answer says how a person answers the agent's dialogs from outside its
// terminal: which rows are options, and the keys that pick one. It is the
// [answer] table of a rules file.
type Answer struct {
	// Option matches one option row: group 1 is its number (1-9), group 2
	// its text, and an optional group 3 a shortcut key the row shows.
	Option *Pattern
	// Skip leaves out options whose text matches (an option that opens a
	// text box is not an answer a click can give).
	Skip *Pattern
	// Keys are the keys that pick an option (see ValidKey): key names,
	// single characters, "{n}" for the option's number and "{key}" for
	// its shortcut.
	Keys []string
	// Top matches the row a dialog begins at: the nearest such row above
	// its first option. Without one the dialog is the ten rows above.
	Top *Pattern
	// Fixed are the choices of a dialog that draws no numbered options
	// (OpenCode's "Allow once   Allow always   Reject"), offered when their
	// label is on the dialog.
	Fixed []Fixed
}

// Fixed is a choice with its own keys.
type Fixed struct {
	Label string
	Keys  []string
}

// Option is one answer a dialog on the screen offers.
type Option struct {
	N     int    // the number that picks it (the agent's own, where drawn)
	Label string // its text as drawn
	Keys  []string
}

// Dialog is the dialog a blocked screen shows.
type Dialog struct {
	// Text is the dialog's rows, trimmed, options written plainly (the
	// highlight marker left out): an answer types only while the same
	// text is still there.
	Text    string
	Options []Option
}

// Limits of reading a dialog.
const (
	maxOptions = 9
	// maxGap is how many non-blank rows may separate two options (an
	// option's description, a separator).
	maxGap = 4
	// maxBelow is how many non-blank rows may follow the last option (a
	// hint line, a box's bottom edge): further down it is not the dialog.
	maxBelow = 4
	// defaultAbove is how far above its first option a dialog without a
	// Top row is taken to begin.
	defaultAbove = 10
	maxLabel     = 200
	maxDialog    = 2000
)

// keyNames are the keys a rules file may name, besides single characters.
var keyNames = map[string]bool{
	"Enter": true, "Escape": true, "Tab": true, "BTab": true, "Space": true,
	"Up": true, "Down": true, "Left": true, "Right": true,
}

// shortcutNames turns a shortcut an agent draws in words into a key.
var shortcutNames = map[string]string{"esc": "Escape", "enter": "Enter", "tab": "Tab"}

// ValidKey reports whether k is a key an answer may type: a key name
// (Enter, Escape, Tab, BTab, Space, Up, Down, Left, Right) or one
// lower-case letter or digit. Nothing else ever reaches a terminal.
func ValidKey(k string) bool {
	if keyNames[k] {
		return true
	}
	return len(k) == 1 && (k[0] >= 'a' && k[0] <= 'z' || k[0] >= '0' && k[0] <= '9')
}

// keyBytes is what a key sends on a terminal (xterm's sequences).
var keyBytes = map[string]string{
	"Enter": "\r", "Escape": "\x1b", "Tab": "\t", "BTab": "\x1b[Z", "Space": " ",
	"Up": "\x1b[A", "Down": "\x1b[B", "Right": "\x1b[C", "Left": "\x1b[D",
}

// KeyBytes turns keys (ValidKey's) into the bytes a terminal sends for
// them; any other key is an error.
func KeyBytes(keys []string) (string, error) {
	var b strings.Builder
	for _, k := range keys {
		switch {
		case !ValidKey(k):
			return "", fmt.Errorf("%q is not a key", k)
		case len(k) == 1:
			b.WriteString(k)
		default:
			b.WriteString(keyBytes[k])
		}
	}
	return b.String(), nil
}

func validTemplate(k string) bool { return k == "{n}" || k == "{key}" || ValidKey(k) }

type answerSpec struct {
	Option *Pattern    `toml:"option"`
	Skip   *Pattern    `toml:"skip"`
	Keys   []string    `toml:"keys"`
	Top    *Pattern    `toml:"top"`
	Choice []fixedSpec `toml:"choice"`
	Note   string      `toml:"note"`
}

type fixedSpec struct {
	Label string   `toml:"label"`
	Keys  []string `toml:"keys"`
	Note  string   `toml:"note"`
}

// answerError is a mistake in the [answer] table; choice is the 1-based
// [[answer.choice]] it is in, 0 for the table itself.
type answerError struct {
	choice int
	msg    string
}

func (e *answerError) Error() string { return e.msg }

func (a *answerSpec) compile() (*Answer, error) {
	if a == nil {
		return nil, nil
	}
	out := &Answer{Option: a.Option, Skip: a.Skip, Top: a.Top}
	if a.Option != nil {
		if n := a.Option.re.NumSubexp(); n < 2 || n > 3 {
			return nil, fmt.Errorf("answer.option needs 2 or 3 groups (number, text[, shortcut]), it has %d", n)
		}
		if len(a.Keys) == 0 {
			return nil, fmt.Errorf("answer.keys: the keys that pick an option are missing")
		}
	}
	if len(a.Keys) > 0 && a.Option == nil {
		return nil, fmt.Errorf("answer.keys: without answer.option there are no options to pick")
	}
	for _, k := range a.Keys {
		if !validTemplate(k) {
			return nil, fmt.Errorf("answer.keys: %q is not a key (a name such as Enter or Escape, one letter or digit, {n} or {key})", k)
		}
	}
	out.Keys = a.Keys
	if len(a.Choice) > maxOptions {
		return nil, fmt.Errorf("answer.choice: %d choices is over the limit of %d", len(a.Choice), maxOptions)
	}
	for i, c := range a.Choice {
		if strings.TrimSpace(c.Label) == "" || len(c.Label) > maxLabel || strings.ContainsAny(c.Label, "\n\r") {
			return nil, &answerError{i + 1, fmt.Sprintf("answer.choice %d: label must be one line of text", i+1)}
		}
		if len(c.Keys) == 0 {
			return nil, &answerError{i + 1, fmt.Sprintf("answer.choice %d: keys are missing", i+1)}
		}
		for _, k := range c.Keys {
			if !ValidKey(k) {
				return nil, &answerError{i + 1, fmt.Sprintf("answer.choice %d: %q is not a key (a name such as Enter or Escape, or one letter or digit)", i+1, k)}
			}
		}
		out.Fixed = append(out.Fixed, Fixed{Label: c.Label, Keys: c.Keys})
	}
	return out, nil
}

// Dialog reads the dialog of a blocked screen (res is its
// classification): its options and the text an answer must still find.
// A screen that is not blocked, or an agent without answer rules, has
// none.
func (s *Set) Dialog(rows []string, res Result) Dialog {
	a := s.Answer
	if a == nil || res.State != "blocked" {
		return Dialog{}
	}
	opts, first := numbered(a, rows)
	if first < 0 && len(a.Fixed) > 0 {
		opts, first = fixed(a, rows, res.Match)
	}
	if first < 0 {
		return Dialog{}
	}
	start := max(first-defaultAbove, 0)
	if a.Top != nil {
		for i := first; i >= 0 && i >= first-2*defaultAbove; i-- {
			if a.Top.MatchString(rows[i]) {
				start = i
				break
			}
		}
	}
	return Dialog{Text: dialogText(a, rows[start:]), Options: opts}
}

// numbered finds the options drawn as numbered rows: the last run on the
// screen that counts down to 1 reading upwards, close to the bottom.
// It returns them in order and the row of the first, or -1.
func numbered(a *Answer, rows []string) ([]Option, int) {
	if a.Option == nil {
		return nil, -1
	}
	var found []Option
	first, expect, gap, below := -1, 0, 0, 0
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.TrimSpace(rows[i]) == "" {
			continue
		}
		n, label, key, ok := a.optionRow(rows[i])
		switch {
		case !ok && first < 0:
			if below++; below > maxBelow {
				return nil, -1
			}
			continue
		case !ok:
			if gap++; gap > maxGap {
				return nil, -1
			}
			continue
		case first >= 0 && n != expect:
			return nil, -1 // another list, or a broken one
		}
		gap, first, expect = 0, i, n-1
		if o, ok := a.option(n, label, key); ok {
			found = append(found, o)
		}
		if expect == 0 {
			break
		}
	}
	if first < 0 || expect != 0 {
		return nil, -1
	}
	// Read upwards: put them in order.
	for l, r := 0, len(found)-1; l < r; l, r = l+1, r-1 {
		found[l], found[r] = found[r], found[l]
	}
	return found, first
}

// optionRow reads one row as an option.
func (a *Answer) optionRow(row string) (n int, label, key string, ok bool) {
	m := a.Option.re.FindStringSubmatch(row)
	if m == nil {
		return 0, "", "", false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > maxOptions {
		return 0, "", "", false
	}
	label = strings.TrimSpace(m[2])
	if len(m) > 3 {
		key = m[3]
	}
	return n, label, key, label != ""
}

// option makes the choice of a numbered row: its keys from the templates.
// A skipped option, or one whose keys cannot be made, is left out.
func (a *Answer) option(n int, label, key string) (Option, bool) {
	if a.Skip != nil && a.Skip.MatchString(label) {
		return Option{}, false
	}
	o := Option{N: n, Label: text.OneLine(label, maxLabel)}
	for _, k := range a.Keys {
		switch k {
		case "{n}":
			k = strconv.Itoa(n)
		case "{key}":
			if named, ok := shortcutNames[key]; ok {
				k = named
			} else {
				k = key
			}
		}
		if !ValidKey(k) {
			return Option{}, false
		}
		o.Keys = append(o.Keys, k)
	}
	return o, true
}

// fixed offers the fixed choices whose labels the dialog shows, below the
// row the rule matched. It returns them and the row of the first, or -1.
func fixed(a *Answer, rows []string, match string) ([]Option, int) {
	from := 0
	if match != "" {
		line, _, _ := strings.Cut(match, "\n")
		for i := len(rows) - 1; i >= 0; i-- {
			if strings.Contains(rows[i], line) {
				from = i
				break
			}
		}
	}
	var out []Option
	first := -1
	for n, c := range a.Fixed {
		for i := from; i < len(rows); i++ {
			if labelIn(rows[i], c.Label) {
				out = append(out, Option{N: n + 1, Label: c.Label, Keys: c.Keys})
				if first < 0 || i < first {
					first = i
				}
				break
			}
		}
	}
	return out, first
}

// labelIn reports whether row shows label as a whole: not as part of a
// longer word.
func labelIn(row, label string) bool {
	re := `(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(label) + `($|[^\p{L}\p{N}])`
	ok, _ := regexp.MatchString(re, row)
	return ok
}

// dialogText is the dialog's rows as an answer compares them: trimmed,
// blank rows left out, and each option written as "N. text" so moving the
// highlight between them does not change it.
func dialogText(a *Answer, rows []string) string {
	var b strings.Builder
	for _, r := range rows {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if a.Option != nil {
			if n, label, _, ok := a.optionRow(r); ok {
				r = strconv.Itoa(n) + ". " + label
			}
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r)
		if b.Len() > maxDialog {
			break
		}
	}
	return text.Clip(b.String(), maxDialog)
}
