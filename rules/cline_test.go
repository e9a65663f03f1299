package rules

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

// Cline's working screens (3.0.65, e2e runs): the spinner with "Thinking...
// (esc to cancel)" before the reply, and the spinner before the reply's
// text while it streams; once the turn ends (or Esc stopped it) the reply
// is marked "*" and the input box is idle.
func TestClineWorkingScreens(t *testing.T) {
	rule := strings.Repeat("─", 100)
	box := rule + "\n❯ Ask anything...\n" + rule + "\n fake-model (10) $0.00        ○ Plan ● Act (Tab)\n proj\n Auto-approve all disabled (Shift+Tab)"
	set := Embedded().Set("cline")
	for _, c := range []struct {
		name, screen string
		want         string
	}{
		{"thinking", " ❯ hello mew-slow\n\n ⠧ Thinking... (esc to cancel)\n\n\n" + box, session.ScreenWorking},
		{"streaming", " ❯ please mew-e2e-slow\n\n ⠇ Thinking it over slowly\n\n\n" + box, session.ScreenWorking},
		{"finished", " ❯ please mew-e2e-slow\n\n * Thinking it over slowly\n\n\n" + box, session.ScreenIdle},
	} {
		if got := set.Classify(Frame{Rows: strings.Split(c.screen, "\n")}); got.State != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got.State, got.Rule, c.want)
		}
	}
}
