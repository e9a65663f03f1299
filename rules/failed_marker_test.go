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

// Gemini CLI's error, the same: failed while no later turn is drawn below
// it. Its rule matched the line anywhere, so a later turn could read failed
// (a clean run of TestConformGeminiScreen read the question's turn after
// the error so). The screens: the walk's error and the turn after it,
// Gemini CLI 0.61.0 (fixtures conform-error).
func TestGeminiAPIErrorOnlyWhileLast(t *testing.T) {
	gemini := rules.Embedded().Set("gemini")
	dir := "../testdata/fixtures/gemini-cli-0.61.0/conform-error/"
	for _, c := range []struct {
		screen string
		failed bool
	}{
		{"01-error", true},
		{"02-error-next-typed", true}, // the next prompt typed, not yet sent: in the input box
		{"03-next-turn", false},       // sent: drawn below the error, its hooks running
		{"04-next-reply", false},
		{"05-next-done", false},
	} {
		f := rules.Frame{Rows: fixtureRows(t, dir+c.screen+".txt")}
		res := gemini.Classify(f)
		if (res.State == session.ScreenFailed) != c.failed {
			t.Errorf("%s: %s (%s), want failed %v", c.screen, res.State, res.Rule, c.failed)
		}
		// Nor is the old error the running turn's (the screen tracker's
		// ErrorShown asks so while a turn shows working).
		if only := gemini.ClassifyOnly(f, session.ScreenFailed); !c.failed && only.State == session.ScreenFailed {
			t.Errorf("%s: the error above reads as this turn's (%s)", c.screen, only.Rule)
		}
	}
	// The error while its turn's hooks run, their spinner row between it
	// and the input box: still the error.
	rows := fixtureRows(t, dir+"01-error.txt")
	i := slices.IndexFunc(rows, func(r string) bool { return strings.HasPrefix(r, "? for shortcuts") })
	if i < 0 {
		t.Fatal("no status row on the recorded screen")
	}
	rows = slices.Concat(rows[:i], []string{" ⠋ Executing Hooks: mew-hook", "? for shortcuts"}, rows[i+1:])
	if res := gemini.Classify(rules.Frame{Rows: rows}); res.State != session.ScreenWorking {
		t.Errorf("the error while the hooks run: %s (%s), want working", res.State, res.Rule)
	}
	if res := gemini.ClassifyOnly(rules.Frame{Rows: rows}, session.ScreenFailed); res.State != session.ScreenFailed {
		t.Errorf("the error while the hooks run: not read as the turn's error (%s)", res.Rule)
	}
}

// Copilot CLI's error after its retries, the same: failed while it is the
// last thing above the input box, not once a later turn ran below it. The
// screens: run-cop3's recorded error and the walk's error and the turn after
// it (conform-retried-error), Copilot 1.0.102.
func TestCopilotAPIErrorOnlyWhileLast(t *testing.T) {
	copilot := rules.Embedded().Set("copilot")
	for _, c := range []struct {
		screen string
		failed bool
	}{
		{"run-cop3/10-error", true},
		{"conform-retried-error/01-error", true},
		{"conform-retried-error/02-next-done", false},
	} {
		f := rules.Frame{Rows: fixtureRows(t, "../testdata/fixtures/copilot-1.0.102/"+c.screen+".txt")}
		if res := copilot.Classify(f); (res.State == session.ScreenFailed) != c.failed {
			t.Errorf("%s: %s (%s), want failed %v", c.screen, res.State, res.Rule, c.failed)
		}
	}
	// A reply quoting the error's words is no error: its rows are the
	// reply's, indented under its ●.
	rows := fixtureRows(t, "../testdata/fixtures/copilot-1.0.102/conform-retried-error/02-next-done.txt")
	i := slices.IndexFunc(rows, func(r string) bool { return strings.HasPrefix(r, " ● Hello from the fake model.") })
	if i < 0 {
		t.Fatal("no reply on the recorded screen")
	}
	rows = slices.Concat(rows[:i], []string{
		" ● Copilot said:" + strings.Repeat(" ", 103) + "┃",
		"   ✗ Failed to get response from the AI model" + strings.Repeat(" ", 74) + "┃",
	}, rows[i+1:])
	if res := copilot.Classify(rules.Frame{Rows: rows}); res.State == session.ScreenFailed {
		t.Errorf("a reply quoting the error: failed (%s)", res.Rule)
	}
}
