package agy

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

func steps(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

const (
	user    = `{"step_index":%d,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-12-02T05:00:0%dZ","content":"<USER_REQUEST>\nfix the tests\nplease\n</USER_REQUEST>\n<ADDITIONAL_METADATA>x</ADDITIONAL_METADATA>"}`
	call    = `{"step_index":%d,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-12-02T05:00:0%dZ","content":"","tool_calls":[{"name":"run_command","args":{"CommandLine":"go test"}}]}`
	result  = `{"step_index":%d,"source":"SYSTEM","type":"GENERIC","status":"DONE","created_at":"2026-12-02T05:00:0%dZ","content":"The command exited with code 0."}`
	reply   = `{"step_index":%d,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-12-02T05:00:0%dZ","content":"All tests pass."}`
	running = `{"step_index":%d,"source":"MODEL","type":"PLANNER_RESPONSE","status":"RUNNING","created_at":"2026-12-02T05:00:0%dZ","content":"All te"}`
)

func sprintf(format string, i int) string {
	// Both %d: the step index and the second of its time.
	s := strings.Replace(format, "%d", string(rune('0'+i)), 1)
	return strings.Replace(s, "%d", string(rune('0'+i)), 1)
}

func TestParse(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		ok     bool
		state  session.State
		source string
		title  string
		reply  string
	}{
		{"nothing", nil, false, "", "", "", ""},
		{"a system message alone is no turn", steps(`{"step_index":0,"source":"SYSTEM","type":"SYSTEM_MESSAGE","status":"DONE","created_at":"2026-12-02T05:00:00Z","content":"hi"}`), false, "", "", "", ""},
		{"prompt → working", steps(sprintf(user, 1)), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"a tool call runs → working", steps(sprintf(user, 1), sprintf(call, 2)), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"its result → working", steps(sprintf(user, 1), sprintf(call, 2), sprintf(result, 3)), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"the reply → done", steps(sprintf(user, 1), sprintf(call, 2), sprintf(result, 3), sprintf(reply, 4)), true, session.Done, "transcript:PLANNER_RESPONSE", "fix the tests", "All tests pass."},
		{"a reply still streaming → working", steps(sprintf(user, 1), sprintf(running, 2)), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"a new prompt after done → working, the reply forgotten", steps(sprintf(user, 1), sprintf(reply, 2), sprintf(user, 3)), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"a first line cut in the middle and garbage are skipped", steps(`_index":0,"type":"USER_INPUT"}`, `not json`, `[1,2]`, sprintf(user, 1), sprintf(reply, 2)), true, session.Done, "transcript:PLANNER_RESPONSE", "fix the tests", "All tests pass."},
		{"a step index that goes back is skipped", steps(sprintf(user, 1), sprintf(reply, 2), sprintf(user, 1)), true, session.Done, "transcript:PLANNER_RESPONSE", "fix the tests", "All tests pass."},
		{"a step with no time is skipped", steps(sprintf(user, 1), `{"step_index":5,"type":"PLANNER_RESPONSE","status":"DONE","content":"x"}`), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
		{"an unknown step type changes nothing", steps(sprintf(user, 1), sprintf(reply, 2), `{"step_index":3,"type":"BRAND_NEW","status":"DONE","created_at":"2026-12-02T05:00:09Z"}`), true, session.Done, "transcript:PLANNER_RESPONSE", "fix the tests", "All tests pass."},
		{"a last line still being written", append(steps(sprintf(user, 1), sprintf(call, 2)), []byte(`{"step_index":3,"type":"GENE`)...), true, session.Working, "transcript:USER_INPUT", "fix the tests", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lg, ok := Parse(c.data)
			if ok != c.ok || lg.State != c.state || lg.Source != c.source || lg.Title != c.title || lg.LastMessage != c.reply {
				t.Fatalf("Parse = %v, %+v; want %v %s by %s, title %q, reply %q", ok, lg, c.ok, c.state, c.source, c.title, c.reply)
			}
		})
	}
}

func TestParseTimes(t *testing.T) {
	lg, _ := Parse(steps(sprintf(user, 1), sprintf(call, 2), sprintf(reply, 4)))
	if lg.Since.Second() != 4 || lg.At.Second() != 4 {
		t.Fatalf("done since %v at %v: want both at the reply's time", lg.Since, lg.At)
	}
	lg, _ = Parse(steps(sprintf(user, 1), sprintf(call, 2), sprintf(result, 3)))
	if lg.Since.Second() != 1 || lg.At.Second() != 3 {
		t.Fatalf("working since %v at %v: want since the prompt, at the newest step", lg.Since, lg.At)
	}
}

func TestParseKeepsHostileTextInert(t *testing.T) {
	lg, ok := Parse(steps(`{"step_index":1,"type":"USER_INPUT","status":"DONE","created_at":"2026-12-02T05:00:01Z","content":"\u001b]0;pwned\u0007go\u001b[2J"}`,
		`{"step_index":2,"type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-12-02T05:00:02Z","content":"`+strings.Repeat("a\u202e", 5000)+`"}`))
	if !ok || strings.ContainsAny(lg.Title+lg.LastMessage, "\x1b\a\u202e") || len([]rune(lg.LastMessage)) > maxLastReply+1 {
		t.Fatalf("title %q, reply of %d runes: control characters or unbounded", lg.Title, len([]rune(lg.LastMessage)))
	}
}
