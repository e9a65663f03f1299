// Package jwriter is the JSON writer the easyjson-generated code of the
// hook's types writes through (tools/gen-json.sh points the generated
// import here). It has easyjson's jwriter API and output, byte for byte
// (TestSameBytesAsEasyjson), on one plain byte slice.
//
// Why not easyjson's own: its jwriter keeps its output in
// github.com/mailru/easyjson/buffer, whose DumpTo uses net.Buffers. Linking
// net makes a default (cgo) build of mew-hook a dynamically linked program
// that starts about twice as slowly as `make build`'s, and the hook starts
// on every agent event.
package jwriter

import (
	"encoding/base64"
	"errors"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// Flags are encoding options the generated code reads.
type Flags int

const (
	NilMapAsEmpty   Flags = 1 << iota // a nil map is written as {} rather than null
	NilSliceAsEmpty                   // a nil slice is written as [] rather than null
)

// Buffer is the writer's output.
type Buffer struct {
	Buf []byte
}

// EnsureSpace makes room for n more bytes.
func (b *Buffer) EnsureSpace(n int) {
	if cap(b.Buf)-len(b.Buf) < n {
		b.Buf = append(b.Buf[:len(b.Buf):len(b.Buf)], make([]byte, n)...)[:len(b.Buf)]
	}
}

// AppendByte appends one byte.
func (b *Buffer) AppendByte(c byte) { b.Buf = append(b.Buf, c) }

// AppendBytes appends data.
func (b *Buffer) AppendBytes(data []byte) { b.Buf = append(b.Buf, data...) }

// AppendString appends s.
func (b *Buffer) AppendString(s string) { b.Buf = append(b.Buf, s...) }

// Size is the number of bytes written.
func (b *Buffer) Size() int { return len(b.Buf) }

// BuildBytes returns the output, in reuse's first slice when it is big
// enough.
func (b *Buffer) BuildBytes(reuse ...[]byte) []byte {
	if len(reuse) > 0 && cap(reuse[0]) >= len(b.Buf) {
		return append(reuse[0][:0], b.Buf...)
	}
	out := b.Buf
	b.Buf = nil
	return out
}

// DumpTo writes the output to w and empties the buffer.
func (b *Buffer) DumpTo(w io.Writer) (int, error) {
	n, err := w.Write(b.Buf)
	b.Buf = b.Buf[:0]
	return n, err
}

// Writer writes JSON values.
type Writer struct {
	Flags        Flags
	Error        error
	Buffer       Buffer
	NoEscapeHTML bool
}

// Size is the number of bytes written.
func (w *Writer) Size() int { return w.Buffer.Size() }

// DumpTo writes the output to out and empties the buffer.
func (w *Writer) DumpTo(out io.Writer) (int, error) { return w.Buffer.DumpTo(out) }

// BuildBytes returns the output, or the first error met.
func (w *Writer) BuildBytes(reuse ...[]byte) ([]byte, error) {
	if w.Error != nil {
		return nil, w.Error
	}
	return w.Buffer.BuildBytes(reuse...), nil
}

// RawByte appends c as is.
func (w *Writer) RawByte(c byte) { w.Buffer.AppendByte(c) }

// RawString appends s as is.
func (w *Writer) RawString(s string) { w.Buffer.AppendString(s) }

// Raw appends the output of a MarshalJSON: data as is, null when empty,
// nothing (and the error kept) when err is set.
func (w *Writer) Raw(data []byte, err error) {
	switch {
	case w.Error != nil:
	case err != nil:
		w.Error = err
	case len(data) > 0:
		w.Buffer.AppendBytes(data)
	default:
		w.RawString("null")
	}
}

// RawText appends the output of a MarshalText as a JSON string.
func (w *Writer) RawText(data []byte, err error) {
	switch {
	case w.Error != nil:
	case err != nil:
		w.Error = err
	default:
		w.String(string(data))
	}
}

// Base64Bytes appends data as a base64 JSON string (null when nil).
func (w *Writer) Base64Bytes(data []byte) {
	if data == nil {
		w.RawString("null")
		return
	}
	w.Buffer.AppendByte('"')
	w.Buffer.Buf = base64.StdEncoding.AppendEncode(w.Buffer.Buf, data)
	w.Buffer.AppendByte('"')
}

func (w *Writer) Uint8(n uint8)   { w.Uint64(uint64(n)) }
func (w *Writer) Uint16(n uint16) { w.Uint64(uint64(n)) }
func (w *Writer) Uint32(n uint32) { w.Uint64(uint64(n)) }
func (w *Writer) Uint(n uint)     { w.Uint64(uint64(n)) }
func (w *Writer) Uint64(n uint64) { w.Buffer.Buf = strconv.AppendUint(w.Buffer.Buf, n, 10) }
func (w *Writer) Int8(n int8)     { w.Int64(int64(n)) }
func (w *Writer) Int16(n int16)   { w.Int64(int64(n)) }
func (w *Writer) Int32(n int32)   { w.Int64(int64(n)) }
func (w *Writer) Int(n int)       { w.Int64(int64(n)) }
func (w *Writer) Int64(n int64)   { w.Buffer.Buf = strconv.AppendInt(w.Buffer.Buf, n, 10) }

// The ...Str forms are for fields tagged `json:",string"`.
func (w *Writer) Uint8Str(n uint8)     { w.quoted(func() { w.Uint64(uint64(n)) }) }
func (w *Writer) Uint16Str(n uint16)   { w.quoted(func() { w.Uint64(uint64(n)) }) }
func (w *Writer) Uint32Str(n uint32)   { w.quoted(func() { w.Uint64(uint64(n)) }) }
func (w *Writer) UintStr(n uint)       { w.quoted(func() { w.Uint64(uint64(n)) }) }
func (w *Writer) Uint64Str(n uint64)   { w.quoted(func() { w.Uint64(n) }) }
func (w *Writer) UintptrStr(n uintptr) { w.quoted(func() { w.Uint64(uint64(n)) }) }
func (w *Writer) Int8Str(n int8)       { w.quoted(func() { w.Int64(int64(n)) }) }
func (w *Writer) Int16Str(n int16)     { w.quoted(func() { w.Int64(int64(n)) }) }
func (w *Writer) Int32Str(n int32)     { w.quoted(func() { w.Int64(int64(n)) }) }
func (w *Writer) IntStr(n int)         { w.quoted(func() { w.Int64(int64(n)) }) }
func (w *Writer) Int64Str(n int64)     { w.quoted(func() { w.Int64(n) }) }
func (w *Writer) Float32Str(n float32) { w.quoted(func() { w.Float32(n) }) }
func (w *Writer) Float64Str(n float64) { w.quoted(func() { w.Float64(n) }) }

func (w *Writer) quoted(write func()) {
	w.Buffer.AppendByte('"')
	write()
	w.Buffer.AppendByte('"')
}

// errUnsupportedFloat is easyjson's answer to NaN and ±Inf, which JSON
// cannot express.
var errUnsupportedFloat = errors.New("json: unsupported value")

func (w *Writer) float(n float64, bits int) {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		if w.Error == nil {
			w.Error = errUnsupportedFloat
		}
		return
	}
	w.Buffer.Buf = strconv.AppendFloat(w.Buffer.Buf, n, 'g', -1, bits)
}

func (w *Writer) Float32(n float32) { w.float(float64(n), 32) }
func (w *Writer) Float64(n float64) { w.float(n, 64) }

func (w *Writer) Bool(v bool) {
	if v {
		w.RawString("true")
	} else {
		w.RawString("false")
	}
}

const hex = "0123456789abcdef"

// String appends s as a JSON string: control characters, quotes and
// backslashes escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped
// (JavaScript reads them as line ends), and <, > and & escaped unless
// NoEscapeHTML.
func (w *Writer) String(s string) {
	b := append(w.Buffer.Buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (w.NoEscapeHTML || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\t':
				b = append(b, `\t`...)
			case '\r':
				b = append(b, `\r`...)
			case '\n':
				b = append(b, `\n`...)
			case '\\', '"':
				b = append(b, '\\', c)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.Buffer.Buf = append(append(b, s[start:]...), '"')
}
