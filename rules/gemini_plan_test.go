package rules_test

import (
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// Gemini CLI 0.61.0's exit_plan_mode in its plan mode as it draws it (e2e,
// TestConformGeminiPlanScreen; fakellm.PlanFile): a plan to approve (no
// rule read it: working). Rejected with Esc the screen is idle, and a reply
// quoting the dialog's rows, above the input box, is no dialog.
func TestGeminiPlanFromTheScreen(t *testing.T) {
	plan := fixtureRows(t, "testdata/screens/gemini-cli-0.61.0/plan.txt")
	rejected := fixtureRows(t, "testdata/screens/gemini-cli-0.61.0/plan-rejected.txt")
	cases := []struct {
		name   string
		rows   []string
		want   string
		reason session.Reason
	}{
		{"exit_plan_mode's dialog", plan, session.ScreenBlocked, session.ReasonPlan},
		{"the plan rejected with Esc", rejected, session.ScreenIdle, ""},
		{"a reply quoting the plan dialog", quoteAbove(t, rejected, plan, "✦ It asked:", "────", "╭"), session.ScreenIdle, ""},
	}
	for _, c := range cases {
		res := rules.Embedded().Set("gemini").Classify(rules.Frame{Rows: c.rows})
		if res.State != c.want || res.Reason != c.reason {
			t.Errorf("%s: %s %s (%s), want %s %s", c.name, res.State, res.Reason, res.Rule, c.want, c.reason)
		}
	}
}
