package rules_test

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Copilot CLI 1.0.102's question (its ask_user tool, an elicitation form)
// is drawn at the bottom in place of its input box, its hints row just
// above the form's bottom rule; with only the screen read it showed no
// wait (unknown: the session stayed working). A reply quoting the form's
// rows, hints row and all, is a reply (indented under its ● in the
// transcript, the input box below it). The screens are the real CLI's
// (the e2e walk's Ask and a reply quoting the form).
func TestCopilotQuestion(t *testing.T) {
	question := fixtureRows(t, "testdata/screens/copilot-1.0.102/1-question.txt")
	// The form's hints as they are for a form of two fields on the first
	// (tab next) and for a free-text field (no ↑/↓): the rule reads the
	// fixed end of the row, not one form's hints.
	twoFields := replaceRow(t, question, "↑/↓ select", " ↑/↓ select · enter accept · tab next · ctrl+d decline · esc cancel")
	freeText := replaceRow(t, question, "↑/↓ select", " enter accept · ctrl+d decline · esc cancel")
	cases := []struct {
		name   string
		rows   []string
		want   string
		reason session.Reason
	}{
		{"the question", question, session.ScreenBlocked, session.ReasonQuestion},
		{"a form of two fields", twoFields, session.ScreenBlocked, session.ReasonQuestion},
		{"a free-text field", freeText, session.ScreenBlocked, session.ReasonQuestion},
		{"a reply quoting the question", fixtureRows(t, "testdata/screens/copilot-1.0.102/2-reply-quotes-question.txt"), session.ScreenIdle, ""},
		{"answered, the turn over", fixtureRows(t, "testdata/screens/copilot-1.0.102/3-answered.txt"), session.ScreenIdle, ""},
	}
	for _, c := range cases {
		res := rules.Embedded().Set("copilot").Classify(rules.Frame{Rows: c.rows})
		if res.State != c.want || res.Reason != c.reason {
			t.Errorf("%s: %s %s (%s), want %s %s", c.name, res.State, res.Reason, res.Rule, c.want, c.reason)
		}
	}
}

// replaceRow is rows with the one row containing old replaced by row.
func replaceRow(t *testing.T, rows []string, old, row string) []string {
	t.Helper()
	out := append([]string(nil), rows...)
	for i, r := range out {
		if strings.Contains(r, old) {
			out[i] = row
			return out
		}
	}
	t.Fatalf("no row contains %q", old)
	return nil
}
