package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Amp's and Continue's dialogs are boxes at the screen's left edge; their
// replies are drawn a column or two in. A reply quoting the dialog is not a
// prompt (issue 35: both showed waiting(permission) for it, for as long as
// the quote stayed on the screen), and Continue's API error ("Error: 400 …"
// at the left edge, the last thing above its input box) is a failure until
// a later turn is drawn below it (it read as a finished turn: done).
// Continue's AskQuestion dialog waits on the person (it read as working:
// the spinner runs above it). The screens are the real CLIs'
// (TestAmpConformScreen, TestContinueConform).
func TestAmpContinueQuotesAndErrors(t *testing.T) {
	cnError := fixtureRows(t, "testdata/screens/continue-1.5.47/2-api-error.txt")
	box := slices.IndexFunc(cnError, func(r string) bool { return strings.HasPrefix(r, "╭") })
	cnAfterError := slices.Concat(cnError[:box], []string{"● please mew-e2e-brief", "", "● Hello from the fake model.", ""}, cnError[box:])
	cases := []struct {
		agent, name string
		rows        []string
		want        string
		reason      session.Reason
	}{
		{"continue", "AskQuestion's dialog", fixtureRows(t, "testdata/screens/continue-1.5.47/3-question.txt"), session.ScreenBlocked, session.ReasonQuestion},
		{"amp", "a reply quoting the dialog", fixtureRows(t, "testdata/screens/amp-0.0.1790142911/1-reply-quotes-dialog.txt"), session.ScreenIdle, ""},
		{"continue", "a reply quoting the dialog", fixtureRows(t, "testdata/screens/continue-1.5.47/1-reply-quotes-dialog.txt"), session.ScreenIdle, ""},
		{"continue", "an API error", cnError, session.ScreenFailed, ""},
		{"continue", "a turn after the API error", cnAfterError, session.ScreenIdle, ""},
	}
	for _, c := range cases {
		res := rules.Embedded().Set(c.agent).Classify(rules.Frame{Rows: c.rows})
		if res.State != c.want || res.Reason != c.reason {
			t.Errorf("%s, %s: %s %s (%s), want %s", c.agent, c.name, res.State, res.Reason, res.Rule, c.want)
		}
	}
}
