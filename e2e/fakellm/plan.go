package fakellm

// Plan is a scenario where the model asks the person to approve a plan
// with the plan tool the agent offers in its plan mode (planTools, looked up
// as askTools are: offeredTool), then,
// approved, replies with text. Its first reply is an "ask" reply whose
// Text is PlanText.
const Plan = "plan"

// PlanText is the plan the plan scenario asks to approve.
const PlanText = "1. Create the marker file.\n2. Report back."

// planTools are the agents' plan approval tools, by the name an agent
// offers the tool under, each giving PlanText in that tool's arguments.
var planTools = map[string]func() map[string]any{
	// Qwen Code 0.24.4 in --approval-mode plan: exit_plan_mode(plan).
	"exit_plan_mode": func() map[string]any { return map[string]any{"plan": PlanText} },
}
