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

// Claude Code 2.1.328 draws a request the API refused (an HTTP 400 it does
// not retry) as "● API Error: 400 …" (2.1.337: "∷ API Error: …") and ends the turn; without Mew's hooks
// (no StopFailure) its registry's idle read as done (issue 35). The row
// reads failed while it is the last thing above the input box, not once a
// later prompt is below it. Rows as the real CLI drew them
// (e2e TestClaudeConformScreen).
func TestClaudeAPIErrorAboveTheInputBox(t *testing.T) {
	rule := strings.Repeat("─", 120)
	box := rule + "\n❯\u00a0\n" + rule + "\n  ⏸ manual mode on · ? for shortcuts\n"
	errRow := "❯ please mew-e2e-fail\n\n● API Error: 400 mew-e2e scripted failure: this request is invalid\n\n"
	wrapped := "❯ please mew-e2e-fail\n\n● API Error: 400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.1.content: a very\n  long message the terminal wraps over more rows than one, as real API errors do, and then some more words to\n  make a third row\"}}\n\n"
	set := Embedded().Set("claude")
	cases := []struct {
		name, screen string
		want         string
	}{
		{"error above the box", errRow + box, session.ScreenFailed},
		{"wrapped error above the box", wrapped + box, session.ScreenFailed},
		{"a later turn below it", errRow + "❯ please mew-e2e-text\n\n● Hello.\n\n✻ Baked for 0s\n\n" + box, session.ScreenIdle},
		{"a reply quoting it", "❯ what did it say?\n\n● It said:\n  API Error: 400 bad\n\n" + box, session.ScreenIdle},
		// Claude Code 2.1.337 draws the row with another glyph, and a tip
		// row of its own below it.
		{"2.1.337's error above the box", "✻ Baked for 0s · done 3:48 PM\n❯ please mew-e2e-fail\n∷ API Error: 400 mew-e2e scripted failure: this request is invalid\n" +
			"                  tmux focus-events off · add 'set -g focus-events on' to ~/.tmux.conf and reattach\n" + box, session.ScreenFailed},
		{"2.1.337's error, a later prompt below it", "❯ please mew-e2e-fail\n∷ API Error: 400 mew-e2e scripted failure: this request is invalid\n" +
			"❯ please mew-e2e-text\n● Hello.\n✻ Baked for 0s\n" + box, session.ScreenIdle},
	}
	for _, c := range cases {
		res := set.Classify(Frame{Rows: strings.Split(c.screen, "\n")})
		if res.State != c.want {
			t.Errorf("%s: got %q (%s), want %q", c.name, res.State, res.Rule, c.want)
		}
	}
}
