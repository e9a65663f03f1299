package rules_test

import (
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// OpenCode 1.18.33's question tool dialog and Kilo 7.7.7's (the same
// screen), from the e2e suite's real screens (TestConformOpenCodeQuestion*,
// TestConformKiloQuestion*): the dialog, taking the input box's place, is a
// question; a reply quoting it row for row (its ┃ gutter too) above the
// input box is not; a dismissed question leaves the turn's model line
// bare: idle, no finished turn.
func TestOpenCodeQuestionDialog(t *testing.T) {
	cases := []struct {
		agent, name, file string
		state             string
		reason            session.Reason
	}{
		{"opencode", "the question", "opencode-1.18.33/6-question.txt", session.ScreenBlocked, session.ReasonQuestion},
		{"kilo", "the question", "kilo-7.7.7/1-question.txt", session.ScreenBlocked, session.ReasonQuestion},
		{"kilo", "a reply quoting the question", "kilo-7.7.7/3-reply-quotes-question.txt", session.ScreenIdle, ""},
		// OpenCode draws Kilo's screens with "Build" for "Code".
		{"opencode", "a reply quoting the question (Kilo's screen)", "kilo-7.7.7/3-reply-quotes-question.txt", session.ScreenIdle, ""},
		{"kilo", "the question dismissed", "kilo-7.7.7/2-dismissed.txt", session.ScreenIdle, ""},
	}
	for _, c := range cases {
		t.Run(c.agent+"/"+c.name, func(t *testing.T) {
			res := rules.Embedded().Set(c.agent).Classify(rules.Frame{Rows: fixtureRows(t, "testdata/screens/"+c.file)})
			if res.State != c.state || res.Reason != c.reason {
				t.Fatalf("got %s(%s) by %s, want %s(%s)", res.State, res.Reason, res.Rule, c.state, c.reason)
			}
			if c.name == "the question dismissed" && res.TurnEnded {
				t.Errorf("a dismissed question read as a finished turn (%s)", res.Rule)
			}
		})
	}
}
