// Package text makes untrusted text (prompts, messages, paths, tool input
// from an agent) safe to show on one line: in a terminal, a menu, a panel or
// a log.
package text

import (
	"unicode"
	"unicode/utf8"
)

// OneLine flattens s to a single line: whitespace, control characters
// (escape sequences included), format characters (bidi overrides, zero-width
// marks) and invalid UTF-8 become one space, leading and trailing spaces go,
// so a message can neither repaint a terminal nor disguise itself. With
// n > 0 the result is cut to n runes, the last one "…".
func OneLine(s string, n int) string {
	out := make([]rune, 0, min(len(s), 256))
	space := false
	for _, r := range s {
		if n > 0 && len(out) > n {
			break
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
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

// Clip cuts s to at most n runes, the last one "…" when cut.
func Clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
