package rules

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

// Claude Code 2.1.328 lists its background subagents under the input box's
// footer ("● main", then one "◯" row each). With two or more the footer
// ("↓ to manage") is no longer among the last three rows, no rule matched,
// and the screen kept what it showed before: a subagent's permission
// dialog, answered, read as still waiting until the main agent drew
// something else (issue 35: 2.9–3.5 s late). Rows as the real CLI drew
// them (e2e TestSubagentPermissionTwoInParallel).
func TestClaudeFooterAboveTheSubagentList(t *testing.T) {
	rule := strings.Repeat("─", 120)
	top := "❯ please mew-e2e-agentstwo\n\n● Agent(Run subtask)\n  ⎿  Backgrounded agent (↓ to manage · ctrl+o to expand)\n\n" +
		"● Done.\n\n✻ Waiting for 2 background agents to finish\n\n\n\n" + rule + "\n❯\u00a0\n" + rule + "\n" +
		"  ⏸ manual mode on · ? for shortcuts · ← for agents · ↓ to manage\n\n  ● main\n"
	set := Embedded().Set("claude")
	for n := 1; n <= 4; n++ {
		screen := top
		for i := 0; i < n; i++ {
			screen += "  ◯ general-purpose  Run subtask " + strings.Repeat(" ", 60) + "2s\n"
		}
		screen += "\n"
		res := set.Classify(Frame{Rows: strings.Split(screen, "\n")})
		if res.State != session.ScreenWorking {
			t.Errorf("%d subagents listed: got %q (%s), want working (a background subagent runs)", n, res.State, res.Rule)
		}
	}
}
