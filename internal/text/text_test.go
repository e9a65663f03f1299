package text

import (
	"strings"
	"testing"
	"unicode/utf8"
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
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"", 3, ""},
		{"x", 0, ""},
		{"x", -1, ""},
		{"ab", 1, "…"},
		{"ééé", 3, "ééé"}, // 6 bytes, 3 characters: not cut
		{"ééé", 2, "é…"},  // two-byte runes
		{"日本語テキスト", 4, "日本語…"}, // three-byte runes
		{"a😀b😀c", 4, "a😀b…"},   // four-byte runes
		{"éé", 3, "é…"},     // a combining mark is a rune of its own
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"", 0, ""},
		{"éé", 4, "éé"},
		{"éé", 3, "é"},   // would cut the second é in half
		{"éé", 1, ""},    // not even one
		{"日本語", 7, "日本"}, // 9 bytes; 7 falls inside 語
		{"日本語", 6, "日本"}, // on a boundary
		{"a😀", 4, "a"},   // inside a four-byte rune
		{"a😀", 5, "a😀"},
		{"ab\xff\xfe", 3, "ab\xff"}, // invalid UTF-8 is cut where it is
		{"\x80\x80\x80\x80\x80", 4, "\x80\x80\x80\x80"},
	} {
		got := Truncate(c.in, c.n)
		if got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if len(got) > max(c.n, 0) {
			t.Errorf("Truncate(%q, %d): %d bytes", c.in, c.n, len(got))
		}
		if utf8.ValidString(c.in) && !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q: cut a character", c.in, c.n, got)
		}
	}
}

func TestPrintable(t *testing.T) {
	cases := map[string]string{
		"/Users/me/My  Projects": "/Users/me/My  Projects",
		"a\x1b]0;t\x07b":         "a\uFFFD]0;t\uFFFDb",
		"\u009b2J\u202eevil":     "\uFFFD2J\uFFFDevil",
		"tab\there\nnext":        "tab\uFFFDhere\uFFFDnext",
		"bad\xffutf":             "bad\uFFFDutf",
		"line\u2028sep":          "line\uFFFDsep",
		"é日本":                    "é日本",
	}
	for in, want := range cases {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	in := "ok\tcol\nline \x1b[2J\u009d0;x\u009c \u202e\x00\xff é\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if want := "ok\tcol\nline \uFFFD[2J\uFFFD0;x\uFFFD \uFFFD\uFFFD\uFFFD é\n"; b.String() != want {
		t.Fatalf("wrote %q, want %q", b.String(), want)
	}
}

// The fast path of OneLine (a clean string returned as it is) agrees with
// the slow one on every input.
func FuzzOneLineFastPath(f *testing.F) {
	for _, s := range []string{"", "a", " a", "a ", "a  b", "a b", "✻ Worked", "a\tb", "\u200bx", "abcdef"} {
		f.Add(s, 0)
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 100
		got := OneLine(s, n)
		if slow := oneLine(s, n); got != slow {
			t.Fatalf("OneLine(%q, %d) = %q, without the fast path %q", s, n, got, slow)
		}
		if again := OneLine(got, n); again != got {
			t.Fatalf("OneLine is not idempotent on %q: %q then %q", s, got, again)
		}
	})
}
