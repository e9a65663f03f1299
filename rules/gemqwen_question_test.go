package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Gemini CLI 0.61.0's ask_user and Qwen Code 0.24.4's ask_user_question as
// they draw them (e2e, the conformance walk's question; fakellm.Ask): a
// question, not a permission (both read as permission, issue 35). Once
// dismissed with Esc the screen is idle, and a reply quoting the dialog's
// rows, above the input box, is no dialog. Qwen's scrollbar (█ at the
// right edge of each row, once the transcript scrolls) read as permission
// (the e2e walk, screen only). Qwen's exit_plan_mode (--approval-mode
// plan) is a plan to approve (it read as permission).
func TestGeminiQwenQuestionFromTheScreen(t *testing.T) {
	gQuestion := fixtureRows(t, "testdata/screens/gemini-cli-0.61.0/4-question.txt")
	gDismissed := fixtureRows(t, "testdata/screens/gemini-cli-0.61.0/5-question-dismissed.txt")
	qQuestion := fixtureRows(t, "testdata/screens/qwen-code-0.24.4/3-question.txt")
	qDismissed := fixtureRows(t, "testdata/screens/qwen-code-0.24.4/4-question-dismissed.txt")
	qPlan := fixtureRows(t, "testdata/screens/qwen-code-0.24.4/6-plan.txt")
	qRejected := fixtureRows(t, "testdata/screens/qwen-code-0.24.4/7-plan-rejected.txt")
	cases := []struct {
		agent, name, title string
		rows               []string
		want               string
		reason             session.Reason
	}{
		{"gemini", "ask_user's dialog", "", gQuestion, session.ScreenBlocked, session.ReasonQuestion},
		{"gemini", "dismissed with Esc", "", gDismissed, session.ScreenIdle, ""},
		{"gemini", "a reply quoting the dialog", "", quoteAbove(t, gDismissed, gQuestion, "✦ It asked:", "────", "╭"), session.ScreenIdle, ""},
		{"qwen", "ask_user_question's dialog", "✳ Qwen - proj", qQuestion, session.ScreenBlocked, session.ReasonQuestion},
		{"qwen", "the dialog with its scrollbar", "✳ Qwen - proj", fixtureRows(t, "testdata/screens/qwen-code-0.24.4/5-question-scrollbar.txt"), session.ScreenBlocked, session.ReasonQuestion},
		{"qwen", "dismissed with Esc", "", qDismissed, session.ScreenIdle, ""},
		{"qwen", "exit_plan_mode's dialog", "✳ Qwen - proj", qPlan, session.ScreenBlocked, session.ReasonPlan},
		{"qwen", "the plan dialog with its scrollbar", "✳ Qwen - proj", fixtureRows(t, "testdata/screens/qwen-code-0.24.4/8-plan-scrollbar.txt"), session.ScreenBlocked, session.ReasonPlan},
		{"qwen", "the plan rejected with Esc", "", qRejected, session.ScreenIdle, ""},
		{"qwen", "a reply quoting the plan dialog", "", quoteAbove(t, qRejected, qPlan, "✦ It asked:", "─", "  ? ExitPlanMode"), session.ScreenIdle, ""},
		{"qwen", "a reply quoting the dialog", "", quoteAbove(t, qDismissed, qQuestion, "✦ It asked:", "─", "  ? AskUserQuestion"), session.ScreenIdle, ""},
	}
	for _, c := range cases {
		res := rules.Embedded().Set(c.agent).Classify(rules.Frame{Rows: c.rows, Title: c.title})
		if res.State != c.want || res.Reason != c.reason {
			t.Errorf("%s, %s: %s %s (%s), want %s %s", c.agent, c.name, res.State, res.Reason, res.Rule, c.want, c.reason)
		}
	}
}

// quoteAbove is idle (an idle screen) with a reply, headed by head,
// quoting dialog's rows from the one starting with from inserted above
// its first row starting with before (the input box).
func quoteAbove(t *testing.T, idle, dialog []string, head, before, from string) []string {
	t.Helper()
	at := slices.IndexFunc(idle, func(r string) bool { return strings.HasPrefix(r, before) })
	start := slices.IndexFunc(dialog, func(r string) bool { return strings.HasPrefix(r, from) })
	if at < 0 || start < 0 {
		t.Fatalf("no %q in the idle screen or no %q in the dialog", before, from)
	}
	reply := []string{head}
	for _, r := range dialog[start:] {
		reply = append(reply, "  "+r)
	}
	return slices.Concat(idle[:at], reply, []string{""}, idle[at:])
}
