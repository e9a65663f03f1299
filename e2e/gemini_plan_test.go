package e2e

// Gemini CLI 0.61.0 in its plan mode (--approval-mode plan): the model
// writes its plan file, then its exit_plan_mode asks the person to approve
// it, in each mode of the conformance walk (fakellm.PlanFile).

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// geminiPlanDialog is exit_plan_mode's dialog: the plan under "Ready to
// start implementation?", its choices ("1. Yes, automatically accept
// edits", taken with Enter; "2. Yes, manually accept edits"; "3. Type your
// feedback...") and its key hints (Esc cancels).
var geminiPlanDialog = regexp.MustCompile(`(?s)Yes, manually accept edits.*Esc to cancel`)

// The plan → waiting(plan); rejected with Esc → idle, never done (Gemini
// cancels the turn: "Request cancelled.", no further request); asked again
// and rejected with feedback, then asked again and approved: each → not
// waiting, working while the model's reply trickles, the turn → done.
func geminiPlan(t *testing.T, mode string) {
	w, a := planRejectedWithEsc(t, geminiCLI, mode, fakellm.PlanFile, geminiPlanDialog)
	c := w.cli
	if w.mode == modeHooks && slices.Contains(c.hooksBlind, "esc") {
		// No hook fires for it (no AfterTool, no AfterAgent): Mew says
		// waiting(plan) until the next prompt.
		t.Logf("plan rejected with Esc: left out: its hooks cannot tell an Esc on its dialog")
	} else {
		w.expect("plan rejected with Esc → idle", a.Gone, w.goal, stateIs(session.Idle))
		w.never("plan rejected: never done", a.Pressed, a.Gone.Add(settleAfter), shows(session.Done))
	}

	// Its "no": feedback typed as the third choice. The model is told the
	// plan was rejected (AfterTool) and replies: the turn ends done.
	shown := w.dialogAs(fakellm.PlanFile, geminiPlanDialog, session.ReasonPlan)
	// Each step seen before the next: typed with the keys, the text was
	// lost.
	for _, step := range []struct{ key, text, shows string }{
		{key: "Down", shows: `● 2\.\s+Yes, manually`},
		{key: "Down", shows: `● 3\.\s+Type your feedback`},
		{text: "Revise", shows: `● 3\.\s+Revise`},
	} {
		at, err := w.r.Keys(step.key)
		if step.text != "" {
			at, err = w.r.Type(step.text)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.r.WaitScreen(at, regexp.MustCompile(step.shows), 10*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	a, err := w.r.Answer(geminiPlanDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	ref := a.Gone
	if w.mode == modeHooks {
		ref = w.observed(a.Pressed, "the rejected plan's AfterTool", c.answeredEvent)
	}
	left := w.expect("plan rejected with feedback → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	end := w.turnEnded(a.Pressed, fakellm.PlanFile, "the rejected plan's turn end")
	w.never("plan rejected with feedback: working until the turn ends", ref.Add(max(left.Hi, w.goal)), end.Add(-w.goal), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	w.staysDone("the rejected plan's turn", end)
	// Rejected, not approved: the tool's result as Gemini draws it.
	if _, err := w.r.WaitScreen(a.Pressed, regexp.MustCompile(`Feedback: Revise`), 5*time.Second); err != nil {
		t.Errorf("the rejection never showed: %v", err)
	}

	shown = w.dialogAs(fakellm.PlanFile, geminiPlanDialog, session.ReasonPlan)
	if a, err = w.r.Answer(geminiPlanDialog, shown.At, "Enter"); err != nil {
		t.Fatal(err)
	}
	ref = a.Gone
	if w.mode == modeHooks {
		ref = w.observed(a.Pressed, "the approved plan's AfterTool", c.answeredEvent)
	}
	left = w.expect("plan approved → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	end = w.turnEnded(a.Pressed, fakellm.PlanFile, "the approved plan's turn end")
	w.never("plan approved: working until the turn ends", ref.Add(max(left.Hi, w.goal)), end.Add(-w.goal), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	w.staysDone("the approved plan's turn", end)
	if _, err := w.r.WaitScreen(a.Pressed, regexp.MustCompile(`Plan approved:`), 5*time.Second); err != nil {
		t.Errorf("the approval never showed: %v", err)
	}
}

func TestConformGeminiPlanHooksPane(t *testing.T) { geminiPlan(t, modeHooksPane) }
func TestConformGeminiPlanScreen(t *testing.T)    { geminiPlan(t, modeScreen) }
func TestConformGeminiPlanHooks(t *testing.T)     { geminiPlan(t, modeHooks) }
