package rules_test

import (
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Gemini CLI 0.61.0 draws its confirmation in a box: its rows start at the
// box's left edge. A reply quoting a dialog's words is indented text: in a
// frame caught while Gemini redraws, with no input box drawn (blocked rules
// then read the whole screen), it is no prompt. The rows are the conformance
// walk's (TestConformGeminiHooksPane's quote, its real dialog).
func TestGeminiQuotedDialogWithoutTheBoxIsNoPrompt(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	quote := []string{
		" > please mew-e2e-quote",
		"",
		"✦ The dialogs read:",
		"",
		"  Allow execution of: 'touch x'?",
		"",
		"  1. Allow once",
		"",
		"  Nobody is asked anything here.",
		" ⠼ Executing Hooks: mew (1/2)",
	}
	if res := set.Classify(rules.Frame{Rows: quote}); res.State == session.ScreenBlocked {
		t.Errorf("a quote with no input box under it: blocked by %s", res.Rule)
	}
	dialog := []string{
		"╭──────────────────────────────────────────────────────────────╮",
		"│ ? Shell  touch made-by-agent                                 │",
		"│ Allow execution of [Shell]?                                  │",
		"│                                                              │",
		"│ ● 1. Allow once                                              │",
		"│   2. Allow for this session                                  │",
		"│   3. No, suggest changes (esc)                               │",
		"╰──────────────────────────────────────────────────────────────╯",
	}
	if res := set.Classify(rules.Frame{Rows: dialog}); res.State != session.ScreenBlocked || res.Reason != session.ReasonPermission {
		t.Errorf("the dialog: %s(%s) by %s, want blocked(permission)", res.State, res.Reason, res.Rule)
	}
	// Either row alone (the box cut by the pane's edge) is the dialog too.
	for _, rows := range [][]string{dialog[2:3], dialog[4:5]} {
		if res := set.Classify(rules.Frame{Rows: rows}); res.State != session.ScreenBlocked {
			t.Errorf("%q: %s by %s, want blocked", rows, res.State, res.Rule)
		}
	}
}
