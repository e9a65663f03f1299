package rules

import (
	"os"
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

// Cline's question dialog (3.0.65, its ask_question tool; the e2e run's
// screens): drawn in place of the input box under "Cline is asking a
// question", its options scrolled in a box of their own. A reply quoting
// it (rows indented under " * ") is no question: idle once the turn ended,
// working while a turn after it runs.
func TestClineQuestionScreens(t *testing.T) {
	set := Embedded().Set("cline")
	for _, c := range []struct {
		file, state string
		reason      session.Reason
	}{
		{"1-question.txt", session.ScreenBlocked, session.ReasonQuestion},
		{"2-quote.txt", session.ScreenIdle, ""},
		{"3-quote-question-answered.txt", session.ScreenWorking, ""},
	} {
		data, err := os.ReadFile("testdata/screens/cline-3.0.65/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if c.file != "1-question.txt" && !strings.Contains(string(data), "\n   Cline is asking a question\n") {
			t.Fatalf("%s: no quote of the dialog: the check proves nothing", c.file)
		}
		got := set.Classify(Frame{Rows: strings.Split(string(data), "\n")})
		if got.State != c.state || got.Reason != c.reason {
			t.Errorf("%s: %s %s (%s), want %s %s", c.file, got.State, got.Reason, got.Rule, c.state, c.reason)
		}
	}
}
