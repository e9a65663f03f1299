package e2e

// Qwen Code in its plan mode (--approval-mode plan): the model's
// exit_plan_mode asks the person to approve its plan ("Would you like to
// proceed?"), in each mode of the conformance walk.

import (
	"regexp"
	"testing"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// qwenPlanDialog is exit_plan_mode's dialog (Enter: "1. Yes, restore
// previous mode (default)"; Esc: "4. No, keep planning").
var qwenPlanDialog = regexp.MustCompile(`Would you like to proceed\?`)

// planRejectedWithEsc starts c in its plan mode (--approval-mode plan), has
// the model ask for scenario's plan, judges dialog waiting(plan) and
// presses Escape on it.
func planRejectedWithEsc(t *testing.T, c agentCLI, mode, scenario string, dialog *regexp.Regexp) (*walk, driver.Answered) {
	t.Helper()
	c.args = []string{"--approval-mode", "plan"}
	w := startWalk(t, c, mode)
	w.fresh()
	shown := w.dialogAs(scenario, dialog, session.ReasonPlan)
	a, err := w.r.Answer(dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	return w, a
}

// The plan → waiting(plan); rejected with Esc → not waiting (Qwen stays in
// plan mode); asked again and approved → not waiting, the turn → done
// (approved, Qwen leaves plan mode: the Esc comes first).
func qwenPlan(t *testing.T, mode string) {
	w, a := planRejectedWithEsc(t, qwenCLI, mode, fakellm.Plan, qwenPlanDialog)
	c := w.cli
	ref := a.Gone
	if w.mode == modeHooks {
		ref = w.observed(a.Pressed, "the CLI's end of the rejected plan's turn", c.denyEnd)
	}
	w.expect("plan rejected with Esc → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	w.observed(a.Pressed, "the CLI's end of the rejected plan's turn", c.denyEnd)

	shown := w.dialogAs(fakellm.Plan, qwenPlanDialog, session.ReasonPlan)
	a, err := w.r.Answer(qwenPlanDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	w.expect("plan approved → not waiting", a.Gone, w.goal, listedAndNot(session.Waiting))
	w.staysDone("the approved plan's turn", w.turnEnded(a.Pressed, fakellm.Plan, "the approved plan's turn end"))
}

func TestConformQwenPlanHooksPane(t *testing.T) { qwenPlan(t, modeHooksPane) }
func TestConformQwenPlanScreen(t *testing.T)    { qwenPlan(t, modeScreen) }
func TestConformQwenPlanHooks(t *testing.T)     { qwenPlan(t, modeHooks) }
