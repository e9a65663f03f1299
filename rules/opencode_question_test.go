package rules_test

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// OpenCode 1.18.33's question tool dialog and Kilo 7.7.7's (the same
// screen), from the e2e suite's real screens (TestConformOpenCodeQuestion*,
// TestConformKiloQuestion*): the dialog, taking the input box's place, is a
// question; a reply quoting it row for row (its ┃ gutter too) above the
// input box is not; a dismissed question leaves the turn's model line
// bare: idle, no finished turn.
func TestOpenCodeQuestionDialog(t *testing.T) {
	cases := []struct {
		agent, name, file string
		state             string
		reason            session.Reason
	}{
		{"opencode", "the question", "opencode-1.18.33/6-question.txt", session.ScreenBlocked, session.ReasonQuestion},
		{"kilo", "the question", "kilo-7.7.7/1-question.txt", session.ScreenBlocked, session.ReasonQuestion},
		{"kilo", "a reply quoting the question", "kilo-7.7.7/3-reply-quotes-question.txt", session.ScreenIdle, ""},
		{"opencode", "a reply quoting the question", "opencode-1.18.33/8-reply-quotes-question.txt", session.ScreenIdle, ""},
		{"kilo", "the question dismissed", "kilo-7.7.7/2-dismissed.txt", session.ScreenIdle, ""},
		{"opencode", "the question dismissed", "opencode-1.18.33/9-dismissed.txt", session.ScreenIdle, ""},
	}
	for _, c := range cases {
		t.Run(c.agent+"/"+c.name, func(t *testing.T) {
			res := rules.Embedded().Set(c.agent).Classify(rules.Frame{Rows: fixtureRows(t, "testdata/screens/"+c.file)})
			if res.State != c.state || res.Reason != c.reason {
				t.Fatalf("got %s(%s) by %s, want %s(%s)", res.State, res.Reason, res.Rule, c.state, c.reason)
			}
			if c.name == "the question dismissed" && res.TurnEnded {
				t.Errorf("a dismissed question read as a finished turn (%s)", res.Rule)
			}
		})
	}
}

// OpenCode draws a turn's duration as 1.2s under a minute, "1m 21s" from
// one (then "2h 5m", "1d 3h"): a turn that waited on a question past a
// minute ended done, and Mew read its screen as idle (the real screen of
// TestConformOpenCodeQuestionScreen; Kilo draws OpenCode's).
func TestOpenCodeTurnOverAMinuteEnded(t *testing.T) {
	rows := fixtureRows(t, "testdata/screens/opencode-1.18.33/7-turn-over-a-minute.txt")
	for _, agent := range []string{"opencode", "kilo"} {
		set := rules.Embedded().Set(agent)
		for _, d := range []string{"1m 21s", "59m 0s", "2h 5m", "1d 3h", "12.3s", "512ms"} {
			screen := make([]string, len(rows))
			copy(screen, rows)
			for i, r := range screen {
				screen[i] = strings.Replace(r, "· 1m 21s", "· "+d, 1)
			}
			res := set.Classify(rules.Frame{Rows: screen})
			if res.State != session.ScreenIdle || !res.TurnEnded || res.Interrupted {
				t.Errorf("%s, a turn of %s: %s by %s, ended %v, interrupted %v; want idle, a finished turn", agent, d, res.State, res.Rule, res.TurnEnded, res.Interrupted)
			}
		}
	}
}
