package board

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

func TestWhereNamesAnotherTmuxServer(t *testing.T) {
	const ours = "/tmp/tmux-1000/default"
	cases := []struct {
		s    session.Shown
		want string
	}{
		{session.Shown{Tmux: "%0", TmuxServer: ours}, "tmux default:%0"},
		{session.Shown{Tmux: "%0", TmuxServer: ours, TmuxWindow: "proj:1"}, "tmux default:proj:1.%0"},
		{session.Shown{Tmux: "%0"}, "tmux %0"}, // server unknown: the one Mew reads is the only one it lists panes of
		{session.Shown{Tmux: "%0", TmuxServer: "/tmp/tmux-1000/work", TmuxWindow: "w:2"}, "tmux work:w:2.%0"},
		{session.Shown{Tmux: "%3", TmuxServer: "/tmp/tmux-1001/default"}, "tmux /tmp/tmux-1001/default:%3"},
		{session.Shown{Tty: "/dev/pts/4"}, "pts/4"},
		{session.Shown{}, "-"},
	}
	for _, c := range cases {
		if got := Where(c.s, ours); got != c.want {
			t.Errorf("Where(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestWhereKeepsHostileNamesInert(t *testing.T) {
	got := Where(session.Shown{Tmux: "%0\x1b]0;x\a", TmuxServer: "/tmp/s/\x1b[2J" + strings.Repeat("a", 500)}, "/tmp/tmux-0/default")
	if strings.ContainsAny(got, "\x1b\a\n") || len(got) > 120 {
		t.Fatalf("Where = %q: control characters or unbounded", got)
	}
}

func TestAgentNamesTheVersionWhenKnown(t *testing.T) {
	if got := Agent(session.Shown{Agent: "claude", AgentVersion: "2.1.3"}); got != "claude 2.1.3" {
		t.Errorf("Agent = %q", got)
	}
	if got := Agent(session.Shown{Agent: "codex"}); got != "codex" {
		t.Errorf("Agent = %q", got)
	}
}

// The panel and PNG row names the agent, with its version when known,
// after the project; a long project name is cut, never the agent.
func TestSceneRowNamesTheAgent(t *testing.T) {
	s := session.Shown{ID: "a", Agent: "claude", AgentVersion: "2.1.3", State: session.Done, Cwd: "/src/a-very-long-project-name-indeed-yes"}
	rp := planRow(Row{Session: s, Project: "a-very-long-project-name-indeed-yes", State: session.Done}, 0, 0)
	if !strings.HasSuffix(rp.line1, " · claude 2.1.3") || !strings.Contains(rp.line1, "…") {
		t.Errorf("line1 %q", rp.line1)
	}
}

// Outside tmux a row says the terminal app and the tab's title, not only
// the terminal device (issue 40): one form per kind of place.
func TestWhereNamesTheTerminalAppAndTab(t *testing.T) {
	cases := []struct {
		s    session.Shown
		want string
	}{
		{session.Shown{Terminal: "iTerm2", TerminalTitle: "✳ Fix the login", Title: "other", Tty: "/dev/ttys003"}, `iTerm2 "Fix the login"`},
		{session.Shown{Terminal: "Terminal", Title: "refactor store", Tty: "/dev/ttys004"}, `Terminal "refactor store"`},
		{session.Shown{Terminal: "WezTerm", TerminalPane: "pane 3", Tty: "/dev/pts/2"}, "WezTerm pane 3 pts/2"},
		{session.Shown{Terminal: "kitty", TerminalPane: "window 2", Title: "t"}, `kitty window 2 "t"`},
		{session.Shown{Terminal: "Ghostty"}, "Ghostty"},
		// tmux wins: the outer app's variables leak into tmux's panes.
		{session.Shown{Terminal: "kitty", Tmux: "%1", Title: "t"}, "tmux %1"},
	}
	for _, c := range cases {
		if got := Where(c.s, ""); got != c.want {
			t.Errorf("Where(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
	long := Where(session.Shown{Terminal: "iTerm2\x1b[2J", TerminalTitle: strings.Repeat("x\n", 100000)}, "")
	if strings.ContainsAny(long, "\x1b\n") || len([]rune(long)) > 80 {
		t.Errorf("hostile title: %q", long)
	}
}
