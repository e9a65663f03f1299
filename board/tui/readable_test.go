package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// Two agents in one project: each row names its agent and its pane, so
// they are told apart (issue 40, item 1).
func TestRowsOfOneProjectAreToldApart(t *testing.T) {
	cfg := board.DefaultConfig()
	cfg.ShowQuiet, cfg.TmuxSocket = true, "/tmp/tmux-1000/default"
	a := shown("c1", session.Working, "", time.Minute, "/src/proj")
	a.Agent, a.AgentVersion, a.Tmux, a.TmuxServer, a.TmuxWindow = session.AgentClaude, "2.1.3", "%1", cfg.TmuxSocket, "work:0"
	b := shown("x1", session.Working, "", 2*time.Minute, "/src/proj")
	b.Agent, b.Tmux, b.TmuxServer, b.TmuxWindow = session.AgentCodex, "%2", cfg.TmuxSocket, "work:1"
	v := Render([]session.Shown{a, b}, cfg, t0, 120)
	var rows []string
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "proj") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 2 || rows[0] == rows[1] {
		t.Fatalf("rows %q", rows)
	}
	for i, want := range [][]string{{"claude", "tmux default:work:0.%1"}, {"codex", "tmux default:work:1.%2"}} {
		for _, w := range want {
			if !strings.Contains(rows[i], w) {
				t.Errorf("row %q lacks %q", rows[i], w)
			}
		}
	}
	// The selected row, live, says the version too.
	m := New(Options{Now: func() time.Time { return t0 }, Plain: true, Board: &cfg})
	m.width = 100
	step(t, m, Update{Sessions: []session.Shown{a, b}})
	if !strings.Contains(m.text(), "claude 2.1.3 · tmux default:work:0.%1 · id c1") {
		t.Errorf("no agent and place line under the selected row:\n%s", m.text())
	}
}

// ? opens the key help; any key closes it.
func TestQuestionMarkShowsTheKeys(t *testing.T) {
	m := newModel(&clock{t0}, nil, nil)
	step(t, m, Update{Sessions: []session.Shown{shown("a", session.Done, "", time.Minute, "/src/a")}})
	step(t, m, key("?"))
	if v := m.text(); !strings.Contains(v, "enter        jump") || strings.Contains(v, "task of a") {
		t.Fatalf("? shows %q", v)
	}
	step(t, m, key("j"))
	if v := m.text(); strings.Contains(v, "enter        jump") || !strings.Contains(v, "task of a") {
		t.Fatalf("after a key: %q", v)
	}
}

// A waiting row's choices are shown in full when selected, wrapped on a
// narrow terminal, never cut with "…".
func TestSelectedChoicesInFull(t *testing.T) {
	m := newModel(&clock{t0}, nil, nil)
	m.width = 40
	s := shown("w", session.Waiting, session.ReasonPermission, time.Minute, "/src/w")
	s.AnswerVia = "tmux"
	s.Choices = []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "Yes, and don't ask again for this command in /src/w"}, {N: 3, Label: "No, and tell Claude what to do differently"}}
	step(t, m, Update{Sessions: []session.Shown{s}})
	v := m.text()
	flat := strings.Join(strings.Fields(v), " ")
	for _, c := range s.Choices {
		if !strings.Contains(flat, c.Label) {
			t.Errorf("choice %q not in full in:\n%s", c.Label, v)
		}
	}
	for _, l := range strings.Split(v, "\n") {
		if len([]rune(l)) > 40 && strings.Contains(l, "Yes") {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
}

// A failed jump's reason is said once, whole, wrapped to the width.
func TestJumpFailureReadable(t *testing.T) {
	why := "did not jump: the session's process 4242 is not running, so Mew cannot find the terminal that showed it"
	j := &fakeJumper{err: errors.New(why)}
	m := newModel(&clock{t0}, j, nil)
	m.width = 50
	step(t, m, Update{Sessions: []session.Shown{shown("a", session.Done, "", time.Minute, "/src/a")}})
	cmd := step(t, m, key("enter"))
	step(t, m, cmd())
	v := m.text()
	flat := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(flat, "could not jump: the session's process 4242 is not running, so Mew cannot find the terminal that showed it") {
		t.Errorf("the reason is not whole:\n%s", v)
	}
	if strings.Contains(v, "did not jump") {
		t.Errorf("the cause is said twice:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if len([]rune(l)) > 50 && !strings.Contains(l, "↑/↓") && !strings.HasPrefix(l, "›") {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
}

// Every row, not only the selected one, names the agent's version when
// known; on a narrow terminal the project and title are cut, never the
// agent (issue 40).
func TestEveryRowNamesTheAgentVersion(t *testing.T) {
	cfg := board.DefaultConfig()
	cfg.ShowQuiet = true
	a := shown("c1", session.Working, "", time.Minute, "/src/a-rather-long-project-name")
	a.Agent, a.AgentVersion = session.AgentClaude, "2.1.3"
	b := shown("o1", session.Working, "", 2*time.Minute, "/src/a-rather-long-project-name")
	b.Agent, b.AgentVersion = "opencode", "1.0.150"
	c := shown("x1", session.Done, "", 3*time.Minute, "/src/other")
	c.Agent = session.AgentCodex
	for _, width := range []int{120, 60} {
		v := Render([]session.Shown{a, b, c}, cfg, t0, width)
		for _, want := range []string{"claude 2.1.3", "opencode 1.0.150", "codex"} {
			found := false
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, want) {
					found = true
					if n := len([]rune(l)); n > width {
						t.Errorf("width %d: row %q is %d wide", width, l, n)
					}
				}
			}
			if !found {
				t.Errorf("width %d: no row names %q:\n%s", width, want, v)
			}
		}
	}
}

// Outside tmux a row names the terminal app and the tab's title, once.
func TestRowNamesTheTerminalTab(t *testing.T) {
	cfg := board.DefaultConfig()
	cfg.ShowQuiet = true
	a := shown("c1", session.Working, "", time.Minute, "/src/proj")
	a.Terminal, a.Title, a.Tty = "iTerm2", "Fix the login", "/dev/ttys003"
	v := Render([]session.Shown{a}, cfg, t0, 120)
	if !strings.Contains(v, `iTerm2 "Fix the login"`) || strings.Count(v, "Fix the login") != 1 {
		t.Errorf("row:\n%s", v)
	}
}
