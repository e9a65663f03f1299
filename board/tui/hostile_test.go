package tui

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/mew-dev/mew/session"
)

const hostile = "x\x1b]0;pwned\x07\x1b[2J\u009b2J\u009d0;p\u009c\r\u202eevil\u2028\x7f\xffy"

// Every text the terminal board draws: the state and reason (from a
// session file anyone can write), the project, the detail, and what a jump
// reports back.
func TestHostileTextIsInertOnTheBoard(t *testing.T) {
	for _, jumpErr := range []error{nil, errors.New(hostile)} {
		j := &fakeJumper{err: jumpErr}
		m := New(Options{Now: (&clock{t0}).Now, Jumper: j, Plain: true})
		s := shown("a", session.Waiting, session.Reason(hostile), time.Minute, "/src/"+hostile)
		s.Title, s.LastMessage, s.Tool, s.ToolDetail = hostile, hostile, hostile, hostile
		odd := shown("b", session.State(hostile), "", time.Minute, hostile)
		step(t, m, Update{Sessions: []session.Shown{s, odd}})
		cmd := step(t, m, key("enter"))
		if cmd == nil {
			t.Fatal("enter started no jump")
		}
		msg := cmd()
		if jm, ok := msg.(jumpedMsg); ok && jumpErr == nil {
			jm.where = hostile
			msg = jm
		}
		step(t, m, msg)
		v := m.text()
		for _, r := range v {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028') {
				t.Fatalf("%U reaches the terminal: %q", r, v)
			}
		}
		if !strings.Contains(v, "evil") {
			t.Fatalf("the texts are not shown at all: %q", v)
		}
	}
}
