package rules_test

import (
	"fmt"
	"slices"
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

// OpenCode 1.18.33's question dialog numbers its options, and a digit
// picks that option and answers at once (its question keys: 1–9 select
// the answer; a multi-select question's toggles instead, drawn with
// "[ ]", and its last option, "Type your own answer", opens a text box):
// Mew offers the numbered options but that one, from the real screen.
func TestOpenCodeQuestionChoices(t *testing.T) {
	// Kilo draws OpenCode's dialog and takes its digits too.
	for agent, file := range map[string]string{"opencode": "opencode-1.18.33/6-question.txt", "kilo": "kilo-7.7.7/1-question.txt"} {
		set := rules.Embedded().Set(agent)
		rows := fixtureRows(t, "testdata/screens/"+file)
		d := set.Dialog(rows, set.Classify(rules.Frame{Rows: rows}))
		var got []string
		for _, o := range d.Options {
			got = append(got, fmt.Sprintf("%d %s %v", o.N, o.Label, o.Keys))
		}
		if want := []string{"1 React [1]", "2 Vue [2]"}; !slices.Equal(got, want) {
			t.Errorf("%s: choices %q, want %q", agent, got, want)
		}
	}
	set := rules.Embedded().Set("opencode")
	rows := fixtureRows(t, "testdata/screens/opencode-1.18.33/6-question.txt")
	// A multi-select question's options toggle: none is an answer.
	multi := make([]string, len(rows))
	for i, r := range rows {
		multi[i] = strings.NewReplacer("1. React", "1. [ ] React", "2. Vue", "2. [ ] Vue", "3. Type", "3. [ ] Type").Replace(r)
	}
	if d := set.Dialog(multi, set.Classify(rules.Frame{Rows: multi})); len(d.Options) > 0 {
		t.Errorf("a multi-select question offers %+v", d.Options)
	}
}

// The question dialog's text, which an answer confirms before and after
// typing, is the question and its options: not the transcript above it,
// nor a picked option's mark.
func TestOpenCodeQuestionDialogText(t *testing.T) {
	set := rules.Embedded().Set("opencode")
	rows := fixtureRows(t, "testdata/screens/opencode-1.18.33/6-question.txt")
	read := func(rows []string) string { return set.Dialog(rows, set.Classify(rules.Frame{Rows: rows})).Text }
	text := read(rows)
	if !strings.HasPrefix(text, "┃  Which framework?\n") {
		t.Fatalf("the dialog's text does not start at its question:\n%s", text)
	}
	above := slices.Clone(rows)
	above[15] = "  a reply row of the transcript"
	picked := slices.Clone(rows)
	for i, r := range picked {
		picked[i] = strings.Replace(r, "2. Vue", "2. Vue ✓", 1)
	}
	for name, rs := range map[string][]string{"transcript above": above, "option picked": picked} {
		if got := read(rs); got != text {
			t.Errorf("%s: the dialog's text changed:\n%s\nwas\n%s", name, got, text)
		}
	}
}
