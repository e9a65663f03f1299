package app

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// choiceHit finds the button of choice n (0: the "answer in the terminal"
// button) on the controller's frame.
func choiceHit(t *testing.T, c *controller, n int) board.Hit {
	t.Helper()
	f, _ := c.Frame()
	for _, h := range f.Hits {
		if h.Choice == n && (n != 0 || h.H < 20) {
			return h
		}
	}
	t.Fatalf("no button for choice %d in %+v", n, f.Hits)
	return board.Hit{}
}

func TestPanelClicks(t *testing.T) {
	c := newController(board.DefaultConfig())
	w := shown("w1", session.Waiting, t0, "/p/alpha")
	w.Choices, w.AnswerVia = []session.Choice{{N: 1, Label: "Yes"}, {N: 3, Label: "No"}}, "tmux"
	other := shown("w2", session.Waiting, t0.Add(time.Second), "/p/beta")
	other.Choices = []session.Choice{{N: 1, Label: "React"}}
	c.SetSessions([]session.Shown{w, other}, 0, t0.Add(time.Minute))
	if !c.PanelShown() {
		t.Fatal("the panel did not open")
	}
	no := choiceHit(t, c, 3)
	if got := c.ClickAt(no.X+1, no.Y+1); got.Kind != clickAnswer || got.ID != "w1" || got.Choice.Label != "No" {
		t.Errorf("click on No: %+v", got)
	}
	if got := c.ClickAt(5, 20); got.Kind != clickJump || got.ID != "w1" {
		t.Errorf("click on the row: %+v", got)
	}
	// w2's terminal takes no typing: its one button jumps.
	f, _ := c.Frame()
	var elsewhere board.Hit
	for _, h := range f.Hits {
		if h.ID == "w2" && h.H < 20 {
			elsewhere = h
		}
	}
	if got := c.ClickAt(elsewhere.X+1, elsewhere.Y+1); elsewhere.ID == "" || got.Kind != clickJump || got.ID != "w2" {
		t.Errorf("click on answer in the terminal: %+v (%+v)", got, elsewhere)
	}
	// The prompt went meanwhile (the rows are newer than the frame the
	// person clicked on): nothing.
	gone := shown("w1", session.Working, t0.Add(2*time.Minute), "/p/alpha")
	c.rows = board.Arrange([]session.Shown{gone}, t0.Add(2*time.Minute), board.DefaultConfig())
	if got := c.ClickAt(no.X+1, no.Y+1); got.Kind != clickNothing {
		t.Errorf("click on a stale button: %+v", got)
	}
	if got := c.ClickAt(-5, -5); got.Kind != clickNothing {
		t.Errorf("click outside: %+v", got)
	}
}

func TestAnswerFeedback(t *testing.T) {
	if answerFeedback(answer.Result{Outcome: answer.Answered}) != "" || answerFeedback(answer.Result{Outcome: answer.Stuck}) == "" {
		t.Error("feedback sounds")
	}
}
