package rules

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

// Codex 0.169.0's structured question (request_user_input) as it draws it
// (e2e TestCodexConformQuestion). Its options show no shortcut except the
// last, "None of the above … (tab)", whose Tab opens a notes box: it is no
// answer. Mew offered it as the only choice, typed as Tab (issue 35); it
// must offer none from the screen, so the question's own options (from
// its PreToolUse) are the choices.
func TestCodexQuestionOffersNoTabChoice(t *testing.T) {
	screen := "› please mew-e2e-ask\n\n  Question 1/1 (1 unanswered)\n  Which framework?\n\n" +
		"  › 1. React              A\n    2. Vue                B\n    3. None of the above  Optionally, add details in notes (tab)\n\n" +
		"  tab to add notes | enter to submit answer | esc to interrupt"
	set := Embedded().Set("codex")
	rows := strings.Split(screen, "\n")
	d := set.Dialog(rows, Result{State: session.ScreenBlocked})
	for _, o := range d.Options {
		if strings.HasPrefix(o.Label, "None of the above") || strings.Join(o.Keys, " ") == "Tab" {
			t.Errorf("offers %d %q typed as %v: Tab opens the notes box, it answers nothing", o.N, o.Label, o.Keys)
		}
	}
}

// The same question read from the screen alone (no hooks): Codex titles its
// terminal "Action Required" for it as for an approval, and Mew said
// waiting(permission) (issue 35, e2e TestCodexConformScreen). The dialog's
// own hint says it is a question; quoted in a reply above the composer it
// is nothing.
func TestCodexQuestionFromTheScreen(t *testing.T) {
	question := "  Question 1/1 (1 unanswered)\n  Which framework?\n\n" +
		"  › 1. React              A\n    2. Vue                B\n    3. None of the above  Optionally, add details in notes (tab)\n\n" +
		"  tab to add notes | enter to submit answer | esc to interrupt"
	composer := "› Ask Codex to do anything\n\n  gpt-5.1-codex default · ~/proj"
	set := Embedded().Set("codex")
	res := set.Classify(Frame{Rows: strings.Split("› please mew-e2e-ask\n\n"+question, "\n"), Title: "[ ! ] Action Required"})
	if res.State != session.ScreenBlocked || res.Reason != session.ReasonQuestion {
		t.Errorf("question: got %s %s (%s), want blocked question", res.State, res.Reason, res.Rule)
	}
	res = set.Classify(Frame{Rows: strings.Split("› what did it ask?\n\n• It asked:\n"+question+"\n\n"+composer, "\n")})
	if res.State == session.ScreenBlocked {
		t.Errorf("a reply quoting the question: got blocked (%s)", res.Rule)
	}
}

// Codex 0.169.0 started with a feature override (-c) its running
// background server lacks asks before anything else (seen in e2e while
// recording request_user_input); Mew read the pane as idle.
func TestCodexIncompatibleServerDialogWaits(t *testing.T) {
	screen := "  Background server has incompatible feature settings\n  This session requires default_mode_request_user_input to be enabled\n" +
		"  These settings persist and can disable functionality for other clients. Restart may interrupt acti…\n" +
		"  Restart will use these shared feature settings:\n    default_mode_request_user_input = true\n" +
		"  1. Run without daemon this time\n  2. Restart with these settings (recommended)\n› 3. Cancel"
	res := Embedded().Set("codex").Classify(Frame{Rows: strings.Split(screen, "\n")})
	if res.State != session.ScreenBlocked {
		t.Errorf("got %s (%s), want blocked", res.State, res.Rule)
	}
}
