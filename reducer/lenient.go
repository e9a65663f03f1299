package reducer

import (
	"strings"

	"github.com/mailru/easyjson/jlexer"
	"github.com/mew-dev/mew/internal/jwriter"
)

// easyDecoder is a type with generated JSON decoding (payload_easyjson.go).
type easyDecoder[T any] interface {
	*T
	UnmarshalEasyJSON(*jlexer.Lexer)
}

// decodeLenient decodes the JSON object data into *v. The generated decoder
// fails on the first value of an unexpected type, and one odd field (a
// number where a string was expected, from a newer Claude Code or another
// agent) would cost the whole event. So when the fast path fails, each
// top-level field is decoded on its own and only those that do not parse
// are left out; they are returned by name. Data that is not a JSON object
// is still an error.
func decodeLenient[T any, P easyDecoder[T]](data []byte, v P) (ignored []string, err error) {
	if err := decode(data, v); err == nil {
		return nil, nil
	}
	*v = *new(T)
	l := jlexer.Lexer{Data: data}
	var w jwriter.Writer
	rawFields(&l, func(key string, raw []byte) {
		one := field(&w, key, raw)
		if decode(one, P(new(T))) != nil && len(raw) > 0 && raw[0] == '[' {
			// A list keeps the entries that parse: a running subagent in
			// Stop's background_tasks must not be lost to a neighbour's
			// odd field.
			one = field(&w, key, keepEntries[T, P](&w, key, raw))
		}
		// Into a scratch value first, so a field that fails half way
		// leaves v untouched.
		if decode(one, P(new(T))) == nil {
			decode(one, v)
		} else {
			ignored = append(ignored, strings.Clone(key))
		}
	})
	l.Consumed()
	if err := l.Error(); err != nil {
		*v = *new(T)
		return nil, err
	}
	return ignored, nil
}

// rawFields calls f with the name and raw value of each top-level field of
// the JSON object at l, in order, and reads its closing brace. The name is
// only good during the call. A malformed object ends the walk with l's
// error set.
func rawFields(l *jlexer.Lexer, f func(key string, raw []byte)) {
	l.Delim('{')
	for l.Ok() && !l.IsDelim('}') {
		key := l.UnsafeFieldName(false)
		l.WantColon()
		raw := l.Raw()
		l.WantComma()
		if !l.Ok() {
			break
		}
		f(key, raw)
	}
	l.Delim('}')
}

// field is the one-field object {"key": raw}.
func field(w *jwriter.Writer, key string, raw []byte) []byte {
	w.RawByte('{')
	w.String(key)
	w.RawByte(':')
	w.Raw(raw, nil)
	w.RawByte('}')
	b, _ := w.BuildBytes()
	return b
}

// keepEntries is the JSON list raw without the entries that do not decode
// as key's entries in T.
func keepEntries[T any, P easyDecoder[T]](w *jwriter.Writer, key string, raw []byte) []byte {
	var kept []byte
	l := jlexer.Lexer{Data: raw}
	l.Delim('[')
	for l.Ok() && !l.IsDelim(']') {
		entry := l.Raw()
		l.WantComma()
		if l.Ok() && decode(field(w, key, append(append([]byte{'['}, entry...), ']')), P(new(T))) == nil {
			if len(kept) > 0 {
				kept = append(kept, ',')
			}
			kept = append(kept, entry...)
		}
	}
	return append(append([]byte{'['}, kept...), ']')
}
