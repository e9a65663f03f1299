package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// An API error's line stays on the screen after the turn it ended: once a
// later turn ran below it, it is that turn's screen, not a failure. Qwen
// Code's rule matched the line anywhere, so the turn answering a question
// after an error read failed, never done (the conformance walk). The
// screens: the recorded error (run-qw3), and the same with a later turn
// drawn between it and the input box, as Qwen draws one.
func TestQwenAPIErrorOnlyWhileLast(t *testing.T) {
	qwen := rules.Embedded().Set("qwen")
	failed := fixtureRows(t, "../testdata/fixtures/qwen-code-0.24.4/run-qw3/10-error.txt")
	if res := qwen.Classify(rules.Frame{Rows: failed}); res.State != session.ScreenFailed {
		t.Fatalf("the error: %s (%s), want failed", res.State, res.Rule)
	}
	box := slices.IndexFunc(failed, func(r string) bool { return strings.HasPrefix(r, "────") })
	if box < 0 {
		t.Fatal("no input box on the recorded screen")
	}
	later := slices.Concat(failed[4:box], []string{
		"  > please mew-e2e-text",
		"  ◆︎ Hello from the fake model.",
		"",
	}, failed[box:])
	if res := qwen.Classify(rules.Frame{Rows: later}); res.State == session.ScreenFailed {
		t.Errorf("a later turn below the error: failed (%s)", res.Rule)
	}
	// A long error wraps under its line: still the error.
	wrapped := slices.Clone(failed)
	i := slices.IndexFunc(wrapped, func(r string) bool { return strings.Contains(r, "✕ [API Error") })
	wrapped = slices.Insert(wrapped, i+1, "    retried 3 times (total retry wait time: 14 s)")
	wrapped = wrapped[1:]
	if res := qwen.Classify(rules.Frame{Rows: wrapped}); res.State != session.ScreenFailed {
		t.Errorf("a wrapped error: %s (%s), want failed", res.State, res.Rule)
	}
}

// pi's error line, the same: failed while it is the last thing above the
// editor, not once a later turn ran below it (rows as the walk's screen
// showed them, pi 0.73.1).
func TestPiAPIErrorOnlyWhileLast(t *testing.T) {
	pi := rules.Embedded().Set("pi")
	rule := strings.Repeat("─", 60)
	failed := []string{
		" please mew-e2e-down",
		" Error: 500 scripted server error",
		" Error: Retry failed after 3 attempts: 500 scripted server error",
		"",
		rule,
		"",
		rule,
		"/home/p/proj (master)",
		"↑90 ↓45 0.0%/128k (auto)",
	}
	if res := pi.Classify(rules.Frame{Rows: failed}); res.State != session.ScreenFailed {
		t.Fatalf("the error: %s (%s), want failed", res.State, res.Rule)
	}
	later := slices.Concat(failed[:3], []string{" please mew-e2e-text", " Hello from the fake model.", ""}, failed[4:])
	if res := pi.Classify(rules.Frame{Rows: later}); res.State == session.ScreenFailed {
		t.Errorf("a later turn below the error: failed (%s)", res.Rule)
	}
}
