package text

import (
	"strings"
	"testing"
)

func TestOneLine(t *testing.T) {
	cases := map[string]string{
		"a\n\tb   c":                 "a b c",
		"\x1b]0;t\x07x":              "]0;t…",
		strings.Repeat("é", 10):      "éééé…",
		"  lead":                     "lead",
		"abcde":                      "abcde",
		"abcdef":                     "abcd…",
		"ab\u202ec\u0085d":           "ab c…",
		string([]byte{0xff, 'a', 0}): "a",
		"trail \n":                   "trail",
		"\u200bx":                    "x",
	}
	for in, want := range cases {
		if got := OneLine(in, 5); got != want {
			t.Errorf("OneLine(%q, 5) = %q, want %q", in, got, want)
		}
	}
	if got := OneLine(strings.Repeat("x", 1000), 0); len(got) != 1000 {
		t.Errorf("no limit: %d runes", len(got))
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{{"abc", 3, "abc"}, {"abcd", 3, "ab…"}, {"ééé", 2, "é…"}, {"x", 0, ""}} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
