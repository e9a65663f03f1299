package combine

import (
	"slices"
	"testing"

	"github.com/mew-dev/mew/session"
)

func TestChoicesAndAnswerVia(t *testing.T) {
	screenChoices := []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "Yes, and always allow access to /p"}, {N: 4, Label: "No"}}
	blocked := scr(session.ScreenBlocked, 5)
	blocked.Choices = screenChoices
	question := hook(session.Waiting, session.ReasonQuestion, 5)
	question.Pending = []session.PendingTool{{Tool: "Read"}, {Tool: "AskUserQuestion", Wait: session.ReasonQuestion, Options: []string{"React", "Vue"}}}
	permission := hook(session.Waiting, session.ReasonPermission, 5)
	permission.Pending = []session.PendingTool{{Tool: "Bash", Wait: session.ReasonPermission}}
	working := scr(session.ScreenWorking, 6)
	run := scr(session.ScreenBlocked, 5)
	run.Via, run.Pane, run.Choices = "run", "", screenChoices
	inTmux := &session.Process{Pid: 7, Tmux: &session.Tmux{Pane: "%4"}, Env: map[string]string{"ITERM_SESSION_ID": "w0t0p0:6E1C2F5A-0D3B-4A5C-9E8F-1A2B3C4D5E6F"}}
	inITerm := &session.Process{Pid: 7, Env: map[string]string{"ITERM_SESSION_ID": "w0t0p0:6E1C2F5A-0D3B-4A5C-9E8F-1A2B3C4D5E6F"}}
	plain := &session.Process{Pid: 7, Tty: "/dev/ttys003"}

	cases := []struct {
		name    string
		rec     session.Record
		choices []session.Choice
		via     string
	}{
		{"the screen's options win", session.Record{Hook: question, Screen: blocked}, screenChoices, "tmux"},
		{"a question's options from the hooks", session.Record{Hook: question, Process: inITerm}, []session.Choice{{N: 1, Label: "React"}, {N: 2, Label: "Vue"}}, "iterm2"},
		{"a permission nobody saw: no choices, still typable", session.Record{Hook: permission, Process: inTmux}, nil, "tmux"},
		{"tmux before the outer iTerm2", session.Record{Hook: question, Process: inTmux}, []session.Choice{{N: 1, Label: "React"}, {N: 2, Label: "Vue"}}, "tmux"},
		{"another terminal: answer there", session.Record{Hook: question, Process: plain}, []session.Choice{{N: 1, Label: "React"}, {N: 2, Label: "Vue"}}, ""},
		{"mew run", session.Record{Screen: run}, screenChoices, "run"},
		{"not waiting: nothing", session.Record{Hook: hook(session.Working, "", 6), Screen: working, Process: inTmux}, nil, ""},
	}
	for _, c := range cases {
		c.rec.ID, c.rec.Agent = "s", "claude"
		out := Combine(c.rec, Alive)
		if !slices.Equal(out.Choices, c.choices) || out.AnswerVia != c.via {
			t.Errorf("%s: choices %v via %q, want %v via %q (state %s)", c.name, out.Choices, out.AnswerVia, c.choices, c.via, out.State)
		}
	}
	// The record's slice is not shared with the result.
	out := Combine(session.Record{ID: "s", Screen: blocked}, Alive)
	out.Choices[0].Label = "changed"
	if blocked.Choices[0].Label != "Yes" {
		t.Error("Combine shares the screen's choices")
	}
}
