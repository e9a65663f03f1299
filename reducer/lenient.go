package reducer

import (
	"strings"

	"github.com/mailru/easyjson/jlexer"
	"github.com/mailru/easyjson/jwriter"
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
	l.Delim('{')
	var w jwriter.Writer
	for l.Ok() && !l.IsDelim('}') {
		key := l.UnsafeFieldName(false)
		l.WantColon()
		raw := l.Raw()
		l.WantComma()
		if !l.Ok() {
			break
		}
		// {"key": value} through the generated decoder: into a scratch
		// value first, so a field that fails half way leaves v untouched.
		w.RawByte('{')
		w.String(key)
		w.RawByte(':')
		w.Raw(raw, nil)
		w.RawByte('}')
		one, _ := w.BuildBytes()
		if decode(one, P(new(T))) == nil {
			decode(one, v)
		} else {
			ignored = append(ignored, strings.Clone(key))
		}
	}
	l.Delim('}')
	l.Consumed()
	if err := l.Error(); err != nil {
		*v = *new(T)
		return nil, err
	}
	return ignored, nil
}

// BackgroundTasks is Stop's background_tasks, decoded entry by entry: an
// entry that does not parse is skipped and the others are kept (a running
// subagent must not be forgotten because of a neighbour's odd field).
type BackgroundTasks []BackgroundTask

// UnmarshalEasyJSON is called by the generated decoder of Event.
func (b *BackgroundTasks) UnmarshalEasyJSON(l *jlexer.Lexer) {
	if l.IsNull() {
		l.Skip()
		*b = nil
		return
	}
	*b = (*b)[:0]
	l.Delim('[')
	for l.Ok() && !l.IsDelim(']') {
		raw := l.Raw()
		var t BackgroundTask
		if _, err := decodeLenient(raw, &t); err == nil && l.Ok() {
			*b = append(*b, t)
		}
		l.WantComma()
	}
	l.Delim(']')
}
