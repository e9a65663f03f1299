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
		{session.Shown{Tmux: "%0", TmuxServer: ours}, "tmux %0"},
		{session.Shown{Tmux: "%0"}, "tmux %0"}, // server unknown: the one Mew reads is the only one it lists panes of
		{session.Shown{Tmux: "%0", TmuxServer: "/tmp/tmux-1000/work"}, "tmux %0 on work"},
		{session.Shown{Tmux: "%3", TmuxServer: "/tmp/tmux-1001/default"}, "tmux %3 on /tmp/tmux-1001/default"},
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
