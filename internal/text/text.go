// Package text makes untrusted text (prompts, messages, paths, tool input
// from an agent, names from files anyone can write) safe to show: in a
// terminal, a menu, a panel or a log. One rule (inert) decides which
// characters can act on a terminal or disguise text; OneLine, Printable
// and Writer apply it to prose, to names and paths, and to whole output
// streams.
package text

import (
	"io"
	"unicode"
	"unicode/utf8"
)

// inert reports whether r shows as itself and nothing else: not a control
// character (C0 — ESC starts every escape sequence — DEL, or C1, whose
// 0x9b and 0x9d some terminals take as CSI and OSC), not a format
// character (bidi overrides and isolates, zero-width marks), not a line or
// paragraph separator, not the mark of invalid UTF-8.
func inert(r rune) bool {
	return !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r) && r != '\u2028' && r != '\u2029' && r != utf8.RuneError
}

// Replacement stands in for a character that is not inert, where text is
// kept as it is otherwise (Printable, Writer).
const Replacement = '\uFFFD'

// Printable replaces every character of s that is not inert (see above),
// and every byte of invalid UTF-8, with Replacement, keeping the rest as
// it is: for names and paths, where spaces matter.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if !inert(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if !inert(r) {
			r = Replacement
		}
		out = append(out, r)
	}
	return string(out)
}

// Writer passes text through to W with every character that is not inert
// but a newline or a tab replaced (Replacement): for a command's whole
// output to a terminal, whatever its lines quote.
type Writer struct{ W io.Writer }

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) Writer { return Writer{W: w} }

func (t Writer) Write(p []byte) (int, error) {
	clean := true
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if !inert(r) && r != '\n' && r != '\t' {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return t.W.Write(p)
	}
	out := make([]byte, 0, len(p)+8)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if !inert(r) && r != '\n' && r != '\t' {
			r = Replacement
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	if _, err := t.W.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// OneLine flattens s to a single line: whitespace, control characters
// (escape sequences included), format characters (bidi overrides, zero-width
// marks) and invalid UTF-8 become one space, leading and trailing spaces go,
// so a message can neither repaint a terminal nor disguise itself. With
// n > 0 the result is cut to n runes, the last one "…".
func OneLine(s string, n int) string {
	if isOneLine(s, n) {
		return s // the common case: already clean, no copy
	}
	return oneLine(s, n)
}

// oneLine is OneLine without the fast path.
func oneLine(s string, n int) string {
	out := make([]rune, 0, min(len(s), 256))
	space := false
	for _, r := range s {
		if n > 0 && len(out) > n {
			break
		}
		if unicode.IsSpace(r) || !inert(r) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	if n > 0 && len(out) > n {
		out = append(out[:n-1], '…')
	}
	return string(out)
}

// isOneLine reports whether OneLine(s, n) is s itself: inert characters,
// single spaces between words, none at either end, at most n runes.
func isOneLine(s string, n int) bool {
	count := 0
	prevSpace := true // no space at the start
	for _, r := range s {
		count++
		switch {
		case r == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
		case unicode.IsSpace(r) || !inert(r):
			return false
		default:
			prevSpace = false
		}
	}
	return (count == 0 || !prevSpace) && (n <= 0 || count <= n)
}

// Two ways to bound a string, one per meaning; neither ever cuts a
// character in half:
//
//   - Clip is for showing: at most n characters (runes), the last one "…"
//     when anything was cut. Messages, logs and labels quote values with it.
//   - Truncate is for keeping: at most maxBytes bytes, no mark. Fields
//     stored in a file, whose limit is a size, are bounded with it.
//
// OneLine (above) is Clip for untrusted prose: it also flattens the text.

// Clip cuts s to at most n characters (runes), the last one "…" when cut;
// "" when n <= 0.
func Clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Truncate cuts s to at most maxBytes bytes, back to the start of the
// character that would be cut, with no mark; "" when maxBytes <= 0.
func Truncate(s string, maxBytes int) string {
	if len(s) <= maxBytes {
		return s
	}
	if maxBytes <= 0 {
		return ""
	}
	i := maxBytes
	// A character is at most utf8.UTFMax bytes: past that the bytes are
	// not UTF-8 anyway, and the cut stays where it was.
	for j := i; j >= 0 && j > i-utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			i = j
			break
		}
	}
	return s[:i]
}
