package board

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var choices = []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "Yes, and always allow access to /Users/dev/proj from this project"}, {N: 4, Label: "No"}}

// waitingRow is a settled waiting row with the given choices, typable
// via (or not, when "").
func waitingRow(t *testing.T, via string, c []session.Choice) Row {
	t.Helper()
	now := time.Unix(1000, 0)
	s := sh("sess-1", session.Waiting, time.Minute, "/p/proj")
	s.Since = now.Add(-time.Minute)
	s.Reason, s.Choices, s.AnswerVia = session.ReasonPermission, c, via
	rows := Arrange([]session.Shown{s}, now, DefaultConfig())
	if len(rows) != 1 || rows[0].State != session.Waiting {
		t.Fatalf("rows %+v", rows)
	}
	return rows[0]
}

func TestAnswerDecisions(t *testing.T) {
	typable := waitingRow(t, "tmux", choices)
	elsewhere := waitingRow(t, "", choices)
	none := waitingRow(t, "tmux", nil)
	remote := waitingRow(t, "tmux", choices)
	remote.Session.Host = "build-box"
	offline := waitingRow(t, "tmux", choices)
	offline.Session.Host, offline.Session.Offline = "build-box", true
	unsettled := Arrange([]session.Shown{func() session.Shown {
		s := sh("sess-2", session.Waiting, 0, "/p")
		s.Since, s.Choices, s.AnswerVia = time.Unix(1000, 0), choices, "tmux"
		return s
	}()}, time.Unix(1000, 0).Add(100*time.Millisecond), DefaultConfig())[0]
	cases := []struct {
		name string
		row  Row
		key  string
		kind AnswerKind
		n    int
		why  string
	}{
		{"a choice", typable, "4", TypeAnswer, 4, ""},
		{"a number with no choice", typable, "3", NoAnswer, 0, "no choice 3"},
		{"not a choice key", typable, "a", NoAnswer, 0, ""},
		{"zero", typable, "0", NoAnswer, 0, ""},
		{"a terminal Mew cannot type into", elsewhere, "1", AnswerElsewhere, 1, "answer in the terminal"},
		{"choices unknown", none, "1", NoAnswer, 0, "does not know"},
		{"a session on another machine (its mew types)", remote, "2", TypeAnswer, 2, ""},
		{"a machine that cannot be reached", offline, "1", AnswerElsewhere, 1, "answer in the terminal"},
		{"a wait not settled yet shows as working", unsettled, "1", NoAnswer, 0, ""},
	}
	for _, c := range cases {
		a := AnswerKey(c.row, c.key)
		if a.Kind != c.kind || a.Choice.N != c.n || (c.why == "") != (a.Why == "") || !strings.Contains(a.Why, c.why) {
			t.Errorf("%s: %+v", c.name, a)
		}
	}
	if got := ChoicesLine(typable); got != "1 Yes · 2 Yes, and always allow access to /Users/dev/proj from this project · 4 No" {
		t.Errorf("choices line %q", got)
	}
	if got := ChoicesLine(elsewhere); !strings.HasPrefix(got, "answer in the terminal") {
		t.Errorf("elsewhere line %q", got)
	}
	if ChoicesLine(none) != "" || ChoicesLine(unsettled) != "" {
		t.Error("a line for a row with nothing to answer")
	}
}

// The panel draws a waiting row's choices as buttons under it; a click on
// one is that choice, a click on the row is still the jump.
func TestChoiceButtons(t *testing.T) {
	row := waitingRow(t, "tmux", choices)
	other := sh("sess-0", session.Done, time.Minute, "/p/other")
	rows := append([]Row{row}, Arrange([]session.Shown{other}, time.Unix(1000, 0), DefaultConfig())...)
	f := Draw(rows, time.Unix(1000, 0), 0)
	if f.H != Height(2)+stripH || f.H != FrameHeight(rows) {
		t.Fatalf("frame height %d, want %d", f.H, Height(2)+stripH)
	}
	var buttons []Hit
	for _, h := range f.Hits {
		if h.Choice != 0 {
			buttons = append(buttons, h)
		}
	}
	if len(buttons) != 3 || buttons[0].Choice != 1 || buttons[2].Choice != 4 || buttons[0].Y < rowsTop+rowH {
		t.Fatalf("buttons %+v", buttons)
	}
	for _, b := range buttons {
		h, ok := f.HitAt(b.X+b.W/2, b.Y+b.H/2)
		if !ok || h.ID != "sess-1" || h.Choice != b.Choice {
			t.Errorf("click in button %d: %+v", b.Choice, h)
		}
	}
	if h, ok := f.HitAt(Width/2, rowsTop+5); !ok || h.Choice != 0 || h.ID != "sess-1" {
		t.Errorf("click on the row: %+v", h)
	}
	// The next row moved down by the strip.
	if h, ok := f.HitAt(Width/2, rowsTop+rowPitch+stripH+5); !ok || h.ID != "sess-0" {
		t.Errorf("click on the next row: %+v %v", h, ok)
	}
	// Labels are cut to their buttons, each shown.
	var labels []string
	for _, tx := range f.Texts {
		if tx.Y > rowsTop+rowH && tx.Y < rowsTop+rowH+stripH {
			labels = append(labels, tx.S)
		}
	}
	if len(labels) != 3 || labels[0] != "1 Yes" || !strings.HasSuffix(labels[1], "…") || labels[2] != "4 No" {
		t.Errorf("labels %q", labels)
	}

	// Where Mew cannot type: one button that says so and jumps.
	f = Draw([]Row{waitingRow(t, "", choices)}, time.Unix(1000, 0), 0)
	n := 0
	for _, h := range f.Hits {
		if h.Y >= rowsTop+rowH {
			n++
			if h.Choice != 0 {
				t.Errorf("the elsewhere button picks choice %d", h.Choice)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d buttons where Mew cannot type", n)
	}
}
