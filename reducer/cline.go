package reducer

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/mailru/easyjson/jlexer"
)

// Cline CLI 3.x runs every executable file ~/.cline/hooks/<Event> with a
// payload of its own shape on stdin (measured on 3.0.65): the event as
// hookName (agent_start for TaskStart, …), the session as
// sessionContext.rootSessionId (the id `cline --id` resumes), the tool
// call or result as an object of its own, the main agent's agent_id set
// too (parent_agent_id null). It has no approval event: the dialog is the
// screen's (its question tool, ask_question, asks whenever called: its
// tool_call is the question's wait); no SessionStart: the first event records the process; and
// nothing runs at exit (SessionShutdown did not run at Ctrl-C, only at
// Esc on a running turn).

// ClineEvents are the hook files Mew writes (Cline's event names): a task
// (one prompt's turn) starts, a tool is called and returns, the task ends,
// fails after Cline's retries, or is stopped: Esc on a running turn fires
// SessionShutdown, not TaskCancel (measured on 3.0.65; TaskCancel never
// ran). Left out: TaskResume (not seen to run), UserPromptSubmit
// (TaskStart says the same), PreCompact.
var ClineEvents = []string{"TaskStart", "PreToolUse", "PostToolUse", "TaskComplete", "TaskError", "TaskCancel", "SessionShutdown"}

// clineEvent is the part of Cline's payload Mew reads.
type clineEvent struct {
	hook, task, root, cwd, parent, agent string
	tool                                 struct{ id, name string }
	input, err                           json.RawMessage
	output                               string
}

// parseCline decodes Cline's hook payload into ev (names not yet
// canonical). It fails on input that is not a JSON object or names no
// session.
func parseCline(payload []byte, ev *Event) error {
	var c clineEvent
	l := jlexer.Lexer{Data: payload}
	l.Delim('{')
	for l.Ok() && !l.IsDelim('}') {
		key := l.UnsafeFieldName(false)
		l.WantColon()
		switch key {
		case "hookName":
			c.hook = lenientString(&l)
		case "taskId":
			c.task = lenientString(&l)
		case "agent_id":
			c.agent = lenientString(&l)
		case "parent_agent_id":
			c.parent = lenientString(&l)
		case "sessionContext":
			objectFields(&l, func(k string) {
				if k == "rootSessionId" {
					c.root = lenientString(&l)
				} else {
					l.SkipRecursive()
				}
			})
		case "workspaceRoots":
			if l.IsNull() {
				l.Skip()
				break
			}
			l.Delim('[')
			for l.Ok() && !l.IsDelim(']') {
				if s := lenientString(&l); c.cwd == "" {
					c.cwd = s
				}
				l.WantComma()
			}
			l.Delim(']')
		case "tool_call", "tool_result":
			objectFields(&l, func(k string) {
				switch k {
				case "id":
					c.tool.id = lenientString(&l)
				case "name":
					c.tool.name = lenientString(&l)
				case "input":
					c.input = append(json.RawMessage(nil), l.Raw()...)
				default:
					l.SkipRecursive()
				}
			})
		case "error":
			c.err = append(json.RawMessage(nil), l.Raw()...)
		case "turn":
			objectFields(&l, func(k string) {
				if k == "outputText" {
					c.output = lenientString(&l)
				} else {
					l.SkipRecursive()
				}
			})
		default:
			l.SkipRecursive()
		}
		l.WantComma()
	}
	l.Delim('}')
	if err := l.Error(); err != nil {
		return err
	}
	*ev = Event{
		SessionID: first(c.root, c.task), Name: c.hook, Cwd: c.cwd,
		ToolName: c.tool.name, ToolInput: c.input, ToolUseID: c.tool.id,
		Error: c.err, LastMessage: c.output,
	}
	if c.tool.name == clineAskQuestion {
		ev.ToolName, ev.ToolInput = toolAskUserQuestion, clineQuestion(c.input)
	}
	if c.parent != "" {
		ev.AgentID = c.agent // a subagent's; the main agent's id is no subagent
	}
	if ev.SessionID == "" {
		return ErrNoSession
	}
	return nil
}

// clineAskQuestion is Cline's question tool: it asks whenever it is
// called, with no approval first (ask_question(question, options), 3.0.65).
const clineAskQuestion = "ask_question"

// clineQuestion is ask_question's input as AskUserQuestion's (the question
// its detail). Its options are left out: Cline draws them unnumbered, so
// no choice read from the hooks could be typed (Mew's answer reads the
// screen's).
func clineQuestion(input json.RawMessage) json.RawMessage {
	var question string
	l := jlexer.Lexer{Data: input}
	objectFields(&l, func(k string) {
		if k == "question" {
			question = lenientString(&l)
		} else {
			l.SkipRecursive()
		}
	})
	out := append([]byte(`{"questions":[{"question":`), jsonString(question)...)
	return append(out, "}]}"...)
}

// jsonString is s as a JSON string, written by hand: mew-hook links no
// encoding/json encoder (hookbin's lean test). Bytes that are not UTF-8
// become U+FFFD.
func jsonString(s string) []byte {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// objectFields calls field for each key of the object at l (its value
// still to be read); null or another type is skipped.
func objectFields(l *jlexer.Lexer, field func(key string)) {
	if l.IsNull() || !l.IsDelim('{') {
		l.SkipRecursive()
		return
	}
	l.Delim('{')
	for l.Ok() && !l.IsDelim('}') {
		key := l.UnsafeFieldName(false)
		l.WantColon()
		field(key)
		l.WantComma()
	}
	l.Delim('}')
}

// lenientString reads a string, or skips a value of another type (null
// for a main agent's parent_agent_id) as "".
func lenientString(l *jlexer.Lexer) string {
	if l.IsNull() {
		l.Skip()
		return ""
	}
	raw := l.Raw()
	if l.Error() != nil || len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	s := jlexer.Lexer{Data: raw}
	v := s.String()
	if s.Error() != nil {
		return ""
	}
	return v
}
