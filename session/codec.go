//go:build !mew_easyjson_gen

// While easyjson bootstraps its generator (make generate), the package is
// built with stubs written against easyjson's own jwriter: this file, which
// uses internal/jwriter, stays out of that build.

package session

import (
	"github.com/mailru/easyjson/jlexer"

	"github.com/mew-dev/mew/internal/jwriter"
)

// DecodeRecord and EncodeRecord use the generated code in
// session_easyjson.go (tools/gen-json.sh): the hook reads and writes a record
// on every call, and encoding/json's reflection costs more than the rest of
// the hook put together on a cold start.
func DecodeRecord(data []byte, rec *Record) error {
	l := jlexer.Lexer{Data: data}
	rec.UnmarshalEasyJSON(&l)
	return l.Error()
}

// EncodeRecord is the inverse of DecodeRecord.
func EncodeRecord(rec *Record) ([]byte, error) {
	var w jwriter.Writer
	// One buffer that fits a usual record (a few hundred bytes to a few KB)
	// instead of the writer's chain of 128, 256, 512… byte chunks and the
	// final copy: in the hook each new allocation size is a fresh page to
	// fault in. Bigger records still grow as usual.
	w.Buffer.Buf = make([]byte, 0, encodeBufSize)
	rec.MarshalEasyJSON(&w)
	return w.BuildBytes()
}

const encodeBufSize = 8 << 10
