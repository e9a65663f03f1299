package jwriter_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"testing"
	"unicode/utf8"

	easy "github.com/mailru/easyjson/jwriter"

	"github.com/mew-dev/mew/internal/jwriter"
)

// both runs the same writes on ours and on easyjson's jwriter.
func both(t *testing.T, noEscapeHTML bool, write func(ours *jwriter.Writer, theirs *easy.Writer)) {
	t.Helper()
	ours := &jwriter.Writer{NoEscapeHTML: noEscapeHTML}
	theirs := &easy.Writer{NoEscapeHTML: noEscapeHTML}
	write(ours, theirs)
	got, gotErr := ours.BuildBytes()
	want, wantErr := theirs.BuildBytes()
	if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("ours %q (%v), easyjson %q (%v)", got, gotErr, want, wantErr)
	}
}

var strings = []string{
	"", "plain", `quote " backslash \ slash /`, "tab\tcr\rlf\n", "\x00\x01\x1f\x7f",
	"<script>&amp;</script>", "é ü 日本 😺", "line\u2028para\u2029end", "bad \xff\xfe utf8 \xc3",
	"truncated \xe6\x97", string([]byte{0xed, 0xa0, 0x80}), // a UTF-16 surrogate encoded in UTF-8: invalid
}

func TestSameBytesAsEasyjson(t *testing.T) {
	for _, html := range []bool{false, true} {
		for _, s := range strings {
			both(t, html, func(o *jwriter.Writer, e *easy.Writer) { o.String(s); e.String(s) })
		}
	}
	both(t, false, func(o *jwriter.Writer, e *easy.Writer) {
		for _, n := range []int64{0, -1, 42, math.MaxInt64, math.MinInt64} {
			o.Int64(n)
			e.Int64(n)
			o.IntStr(int(n))
			e.IntStr(int(n))
			o.RawByte(',')
			e.RawByte(',')
		}
		o.Uint64(math.MaxUint64)
		e.Uint64(math.MaxUint64)
		for _, f := range []float64{0, -0.5, 1e21, 1e-7, math.MaxFloat64, 3.14159} {
			o.Float64(f)
			e.Float64(f)
			o.Float32(float32(f))
			e.Float32(float32(f))
			o.Float64Str(f)
			e.Float64Str(f)
		}
		o.Bool(true)
		e.Bool(true)
		o.Bool(false)
		e.Bool(false)
		o.Base64Bytes([]byte("hello\x00"))
		e.Base64Bytes([]byte("hello\x00"))
		o.Base64Bytes(nil)
		e.Base64Bytes(nil)
		o.Raw([]byte(`{"a":1}`), nil)
		e.Raw([]byte(`{"a":1}`), nil)
		o.Raw(nil, nil)
		e.Raw(nil, nil)
		o.RawText([]byte("x<y"), nil)
		e.RawText([]byte("x<y"), nil)
	})
}

func TestErrorsAreKept(t *testing.T) {
	for name, write := range map[string]func(o *jwriter.Writer, e *easy.Writer){
		"NaN": func(o *jwriter.Writer, e *easy.Writer) { o.Float64(math.NaN()); e.Float64(math.NaN()) },
		"Inf": func(o *jwriter.Writer, e *easy.Writer) {
			o.Float32(float32(math.Inf(1)))
			e.Float32(float32(math.Inf(1)))
		},
		"Raw error": func(o *jwriter.Writer, e *easy.Writer) { o.Raw(nil, errors.New("x")); e.Raw(nil, errors.New("x")) },
	} {
		t.Run(name, func(t *testing.T) { both(t, false, write) })
	}
}

// FuzzString: any string comes out as easyjson writes it, and as valid
// JSON that decodes to the string (invalid UTF-8 replaced).
func FuzzString(f *testing.F) {
	for _, s := range strings {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		both(t, html, func(o *jwriter.Writer, e *easy.Writer) { o.String(s); e.String(s) })
		w := jwriter.Writer{NoEscapeHTML: html}
		w.String(s)
		var back string
		if err := json.Unmarshal(w.Buffer.Buf, &back); err != nil {
			t.Fatalf("%q: %v", w.Buffer.Buf, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("%q decodes to %q", s, back)
		}
	})
}

func TestBuildBytesReusesABigEnoughSlice(t *testing.T) {
	var w jwriter.Writer
	w.String("abc")
	reuse := make([]byte, 0, 64)
	out, err := w.BuildBytes(reuse)
	if err != nil || string(out) != `"abc"` || &out[:1][0] != &reuse[:1][0] {
		t.Fatalf("BuildBytes(reuse) = %q, %v, reused %v", out, err, &out[:1][0] == &reuse[:1][0])
	}
}
