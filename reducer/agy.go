package reducer

import (
	"github.com/mailru/easyjson/jlexer"
	"github.com/mew-dev/mew/internal/jwriter"
)

// Antigravity CLI sends Claude-shaped hook payloads with camelCase names
// (conversationId, transcriptPath). Unverified: built from its published
// shapes; no recording exists yet.

// fieldName renames one camelCase top-level field to the one Event reads.
type fieldName struct{ camel, snake string }

// agyFields renames its top-level fields to the ones Event reads.
var agyFields = []fieldName{
	{"conversationId", "session_id"},
	{"transcriptPath", "transcript_path"},
	{"hookEventName", "hook_event_name"},
	{"toolName", "tool_name"},
	{"toolInput", "tool_input"},
	{"toolUseId", "tool_use_id"},
	{"workspaceRoot", "cwd"},
	{"lastAssistantMessage", "last_assistant_message"},
}

// RecordsProcessLate reports whether agent has no SessionStart, so its
// first event of a session records the process.
func RecordsProcessLate(agent string) bool { return MappingOf(agent).LateProcess }

// snakeFields is the JSON object data with the camelCase field names of
// table renamed; data that is not an object is returned as it is (the
// decoder then says why). seen, if set, gets every top-level field's
// (original) name and raw value.
func snakeFields(data []byte, table []fieldName, seen func(key string, raw []byte)) []byte {
	l := jlexer.Lexer{Data: data}
	var w jwriter.Writer
	w.RawByte('{')
	first := true
	rawFields(&l, func(key string, raw []byte) {
		if seen != nil {
			seen(key, raw)
		}
		for _, f := range table {
			if key == f.camel {
				key = f.snake
				break
			}
		}
		if !first {
			w.RawByte(',')
		}
		first = false
		w.String(key)
		w.RawByte(':')
		w.Raw(raw, nil)
	})
	if l.Error() != nil {
		return data
	}
	w.RawByte('}')
	out, err := w.BuildBytes()
	if err != nil {
		return data
	}
	return out
}
