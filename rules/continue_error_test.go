package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Continue's API error reads failed only while it is the last thing above
// its input box: the turn after it (here the question the conformance walk
// asks next, and the frame Continue draws while it takes the answered
// dialog down: the turn's prompt row at the bottom, the box not yet drawn)
// is not a failure. Real screens of TestContinueConform.
func TestContinueAPIErrorOnlyWhileLast(t *testing.T) {
	set := rules.Embedded().Set("continue")
	errorRows := fixtureRows(t, "testdata/screens/continue-1.5.47/2-api-error.txt")
	if res := set.Classify(rules.Frame{Rows: errorRows}); res.State != session.ScreenFailed {
		t.Fatalf("the API error: %s by %s, want failed", res.State, res.Rule)
	}
	question := fixtureRows(t, "testdata/screens/continue-1.5.47/3-question.txt")
	if res := set.Classify(rules.Frame{Rows: question}); res.State != session.ScreenBlocked {
		t.Fatalf("the question after the error: %s by %s, want blocked", res.State, res.Rule)
	}
	// The dialog taken down: everything under the question's prompt row
	// erased for a moment.
	i := slices.IndexFunc(question, func(r string) bool { return strings.HasPrefix(r, "● please mew-e2e-askcontinue") })
	if i < 0 {
		t.Fatal("no prompt row in the question's screen")
	}
	between := append(slices.Clone(question[:i+1]), make([]string, len(question)-i-1)...)
	if res := set.Classify(rules.Frame{Rows: between}); res.State == session.ScreenFailed {
		t.Errorf("the next turn's prompt under the old error: failed by %s", res.Rule)
	}
	// That turn ended: its reply and the box under the old error.
	ended := append(slices.Clone(question[:i+1]), "  Done.", "")
	ended = append(ended, errorRows[len(errorRows)-4:]...)
	if res := set.Classify(rules.Frame{Rows: ended}); res.State == session.ScreenFailed {
		t.Errorf("the turn after the error ended: failed by %s", res.Rule)
	}
}
