package fakellm

import "regexp"

// PlanFile is Plan for Gemini CLI 0.61.0 in its plan mode (--approval-mode
// plan), whose exit_plan_mode takes a plan file's name, not the plan: the
// file must exist, not empty, in its plans directory first (packages/core/
// src/tools/exit-plan-mode.ts, validatePlanPath and validatePlanContent).
// Step 0 writes PlanText to PlanFileName there with write_file (its plan
// mode policy allows a .md file in the plans directory unasked), step 1
// asks with exit_plan_mode (an "ask" reply whose Text is PlanText), then
// the model's reply trickles for BriefFor (a turn seen running after the
// approval). On the Gemini API only.
const PlanFile = "planfile"

// PlanFileName is the plan file the planfile scenario writes.
const PlanFileName = "mew-plan.md"

// planFile is the planfile scenario's reply; false for another scenario.
func planFile(c turn, why string) (Reply, bool) {
	if c.scenario != PlanFile {
		return Reply{}, false
	}
	switch c.step {
	case 0:
		return Reply{Kind: "write", Text: PlanText, Why: why}, true
	case 1:
		return Reply{Kind: "ask", Text: PlanText, Why: why}, true
	}
	return Reply{Kind: "text", Text: "Done.", Trickle: BriefFor, Why: why}, true
}

// geminiPlansDir finds Gemini CLI's plans directory where its plan mode
// names it: write_file's description ("… in the plans directory:
// <dir>/. …"; <dir> has "/." in it: ~/.gemini/tmp/…). It is a
// per-session temporary folder.
var geminiPlansDir = regexp.MustCompile(`plans directory: (\S+)/\. `)

// geminiPlanCall is the planfile scenario's functionCall: write the
// plan file into the plans directory req's write_file names, or ask to
// approve it.
func geminiPlanCall(req geminiRequest, kind string) map[string]any {
	if kind == "ask" {
		return map[string]any{"name": "exit_plan_mode", "args": map[string]any{"plan_filename": PlanFileName}}
	}
	path := PlanFileName
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			if m := geminiPlansDir.FindStringSubmatch(d.Description); d.Name == "write_file" && m != nil {
				path = m[1] + "/" + PlanFileName
			}
		}
	}
	return map[string]any{"name": "write_file", "args": map[string]any{"file_path": path, "content": PlanText + "\n"}}
}
