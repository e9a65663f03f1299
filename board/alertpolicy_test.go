package board

import (
	"reflect"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestDecideMuteSnoozeFocus(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	a := Alert{ID: "s1", State: session.Waiting}
	cases := []struct {
		name  string
		facts AlertFacts
		want  Held
	}{
		{"nothing known", AlertFacts{}, Send},
		{"muted", AlertFacts{Muted: map[string]bool{"s1": true}}, HeldMuted},
		{"another muted", AlertFacts{Muted: map[string]bool{"s2": true}}, Send},
		{"snoozed", AlertFacts{Snoozed: map[string]time.Time{"s1": now.Add(time.Minute)}}, HeldSnoozed},
		{"snooze over", AlertFacts{Snoozed: map[string]time.Time{"s1": now.Add(-time.Second)}}, Send},
		{"snooze ends now", AlertFacts{Snoozed: map[string]time.Time{"s1": now}}, Send},
		{"focused", AlertFacts{Focused: map[string]bool{"s1": true}}, HeldFocused},
		{"muted beats focused", AlertFacts{Muted: map[string]bool{"s1": true}, Focused: map[string]bool{"s1": true}}, HeldMuted},
	}
	for _, c := range cases {
		ds := Decide([]Alert{a}, c.facts, now)
		if len(ds) != 1 || ds[0].Held != c.want {
			t.Errorf("%s: %+v, want %q", c.name, ds, c.want)
		}
		if sent := Sent(ds); (len(sent) == 1) != (c.want == Send) {
			t.Errorf("%s: sent %v", c.name, sent)
		}
	}
}

// The alerter is the first half of the policy: only what needs the
// person, and a done only once it settled.
func TestAlertsOnlyFinalSettledDone(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	cfg := DefaultConfig()
	type step struct {
		at    time.Duration
		state session.State
		since time.Duration
		want  int
	}
	cases := []struct {
		name     string
		headless bool
		steps    []step
	}{
		{"done that settles alerts once", false, []step{
			{0, session.Working, 0, 0},
			{time.Second, session.Done, time.Second, 0},
			{1500 * time.Millisecond, session.Done, time.Second, 0},
			{2100 * time.Millisecond, session.Done, time.Second, 1},
			{3 * time.Second, session.Done, time.Second, 0},
		}},
		{"done followed at once by another turn never alerts", false, []step{
			{0, session.Working, 0, 0},
			{time.Second, session.Done, time.Second, 0},
			{1200 * time.Millisecond, session.Working, 1200 * time.Millisecond, 0},
			{5 * time.Second, session.Working, 1200 * time.Millisecond, 0},
		}},
		{"waiting alerts after its short settle", false, []step{
			{0, session.Working, 0, 0},
			{time.Second, session.Waiting, time.Second, 0},
			{1400 * time.Millisecond, session.Waiting, time.Second, 1},
		}},
		{"failed alerts", false, []step{
			{0, session.Working, 0, 0},
			{3 * time.Second, session.Failed, time.Second, 1},
		}},
		{"headless never alerts", true, []step{
			{0, session.Working, 0, 0},
			{3 * time.Second, session.Waiting, time.Second, 0},
			{6 * time.Second, session.Done, 4 * time.Second, 0},
		}},
	}
	for _, c := range cases {
		b := New(cfg)
		for i, s := range c.steps {
			sh := session.Shown{ID: "s1", Agent: "claude", State: s.state, Since: t0.Add(s.since), Headless: c.headless}
			v := b.Update([]session.Shown{sh}, t0.Add(s.at))
			if len(v.Alerts) != s.want {
				t.Errorf("%s step %d: %d alerts %+v, want %d", c.name, i, len(v.Alerts), v.Alerts, s.want)
			}
		}
	}
}

func TestFrontPanes(t *testing.T) {
	cases := []struct {
		name    string
		clients []TmuxClient
		events  bool
		want    []string
	}{
		{"none", nil, false, nil},
		{"attached clients count", []TmuxClient{
			{Flags: "attached,UTF-8", Pane: "%1"}, {Flags: "attached,UTF-8", Pane: "%4"},
		}, false, []string{"%1", "%4"}},
		{"a focused client beats the others", []TmuxClient{
			{Flags: "attached,UTF-8", Pane: "%1"}, {Flags: "attached,focused,UTF-8", Pane: "%4"},
		}, true, []string{"%4"}},
		{"focus-events on, no terminal has focus: nothing in front", []TmuxClient{
			{Flags: "attached,UTF-8", Pane: "%1"}, {Flags: "attached,UTF-8", Pane: "%4"},
		}, true, nil},
		{"a detaching or control client does not", []TmuxClient{
			{Flags: "UTF-8", Pane: "%1"}, {Flags: "attached,control-mode", Pane: "%2"},
		}, false, nil},
		{"a bad pane id is dropped", []TmuxClient{{Flags: "attached", Pane: "%1;rm"}}, false, nil},
	}
	for _, c := range cases {
		var got []string
		for _, p := range FrontPanes(c.clients, c.events) {
			got = append(got, p.Pane)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestFocusedSessionsPerTerminal(t *testing.T) {
	tmuxRec := func(id, pane string, server int) session.Record {
		return session.Record{ID: id, Process: &session.Process{Pid: 10, Tty: "/dev/pts/3", Tmux: &session.Tmux{Pane: pane, ServerPid: server}}}
	}
	iterm := session.Record{ID: "it", Process: &session.Process{Pid: 11, Tty: "/dev/ttys004",
		Env: map[string]string{"ITERM_SESSION_ID": "w0t1p0:6C2A30B4-1F5B-4C5E-9D6A-0A1B2C3D4E5F"}}}
	apple := session.Record{ID: "term", Process: &session.Process{Pid: 12, Tty: "/dev/ttys007"}}
	screenOnly := session.Record{ID: "tmux:%9", Screen: &session.ScreenState{Via: "tmux", Pane: "%9"}}
	codexTUI := session.Record{ID: "cx", Process: &session.Process{Pid: 13},
		Terminal: &session.Terminal{Process: session.Process{Pid: 14, Tmux: &session.Tmux{Pane: "%5"}}}}
	recs := []session.Record{tmuxRec("a", "%1", 100), tmuxRec("b", "%2", 100), tmuxRec("other-server", "%1", 200),
		iterm, apple, screenOnly, codexTUI}
	cases := []struct {
		name  string
		focus Focus
		want  []string
	}{
		{"nothing reported", Focus{}, nil},
		{"tmux on Linux: the client's active pane, on its own server", Focus{Panes: []FocusPane{{ServerPid: 100, Pane: "%1"}}}, []string{"a"}},
		{"tmux pane without a server pid matches by pane", Focus{Panes: []FocusPane{{Pane: "%2"}}}, []string{"b"}},
		{"a screen-only tmux session", Focus{Panes: []FocusPane{{ServerPid: 100, Pane: "%9"}}}, []string{"tmux:%9"}},
		{"Codex: its TUI's pane, not the daemon's", Focus{Panes: []FocusPane{{Pane: "%5"}}}, []string{"cx"}},
		{"tmux on a Mac: the client's tab must be in front", Focus{App: BundleITerm2, TTY: "/dev/ttys001",
			Panes: []FocusPane{{ServerPid: 100, Pane: "%1", ClientTTY: "/dev/ttys001"}}}, []string{"a"}},
		{"tmux on a Mac: the client's tab is behind", Focus{App: BundleITerm2, TTY: "/dev/ttys009",
			Panes: []FocusPane{{ServerPid: 100, Pane: "%1", ClientTTY: "/dev/ttys001"}}}, nil},
		{"iTerm2 by session id", Focus{App: BundleITerm2, ITermSession: "6C2A30B4-1F5B-4C5E-9D6A-0A1B2C3D4E5F"}, []string{"it"}},
		{"iTerm2, another session", Focus{App: BundleITerm2, ITermSession: "00000000-1F5B-4C5E-9D6A-0A1B2C3D4E5F"}, nil},
		{"Terminal.app by the front tab's tty", Focus{App: BundleTerminal, TTY: "/dev/ttys007"}, []string{"term"}},
		{"Terminal.app in front, another tab", Focus{App: BundleTerminal, TTY: "/dev/ttys008"}, nil},
		{"another app in front", Focus{App: "com.apple.Safari"}, nil},
	}
	for _, c := range cases {
		got := FocusedSessions(recs, c.focus)
		want := map[string]bool{}
		for _, id := range c.want {
			want[id] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", c.name, got, want)
		}
	}
}
