package answer

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestPlan(t *testing.T) {
	const guid = "6E1C2F5A-0D3B-4A5C-9E8F-1A2B3C4D5E6F"
	iterm := map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid}
	mac, linux := Host{GOOS: "darwin", MewHome: "/h"}, Host{GOOS: "linux", MewHome: "/h", TmuxSocket: "/tmp/mew-tmux/work"}
	tmuxScreen := &session.ScreenState{Via: "tmux", Pane: "%12", State: session.ScreenBlocked}
	cases := []struct {
		name string
		rec  session.Record
		host Host
		want Target
		why  string
	}{
		{"tmux screen: the server Mew reads", session.Record{Screen: tmuxScreen, Process: &session.Process{Tmux: &session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%3"}}}, linux,
			Target{Via: ViaTmux, Pane: "%12", Socket: "/tmp/mew-tmux/work"}, ""},
		{"tmux from the hooks: their server", session.Record{Process: &session.Process{Tmux: &session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%3"}}}, linux,
			Target{Via: ViaTmux, Pane: "%3", Socket: "/tmp/tmux-1/default"}, ""},
		{"tmux from the hooks, inside iTerm2", session.Record{Process: &session.Process{Env: iterm, Tmux: &session.Tmux{Pane: "%3"}}}, mac,
			Target{Via: ViaTmux, Pane: "%3"}, ""},
		{"iTerm2 on a Mac", session.Record{Process: &session.Process{Env: iterm, Host: &session.Host{BundleID: "com.googlecode.iterm2"}}}, mac,
			Target{Via: ViaITerm, ITermSession: guid}, ""},
		{"iTerm2 elsewhere", session.Record{Process: &session.Process{Env: iterm}}, linux, Target{}, "iTerm2 runs on macOS"},
		{"an iTerm2 id inherited by another app", session.Record{Process: &session.Process{Env: iterm, Host: &session.Host{BundleID: "com.microsoft.VSCode"}}}, mac, Target{}, "answer in the terminal"},
		{"Terminal.app", session.Record{Process: &session.Process{Tty: "/dev/ttys003", Host: &session.Host{BundleID: "com.apple.Terminal"}}}, mac, Target{}, "answer in the terminal"},
		{"no process at all", session.Record{}, mac, Target{}, "answer in the terminal"},
		{"hostile pane", session.Record{Screen: &session.ScreenState{Via: "tmux", Pane: "%1;kill-server"}}, linux, Target{}, "not a pane id"},
		{"hostile socket", session.Record{Process: &session.Process{Tmux: &session.Tmux{Socket: "../../x y", Pane: "%1"}}}, linux, Target{}, "not a plain path"},
		{"hostile iTerm2 id", session.Record{Process: &session.Process{Env: map[string]string{"ITERM_SESSION_ID": "w0t0p0:\" & do shell script \"x"}}}, mac, Target{}, "not one"},
		{"a pane the agent left", session.Record{Screen: &session.ScreenState{Via: "tmux", Pane: "%2", Background: true}}, linux, Target{}, "answer in the terminal"},
		{"mew run", session.Record{Screen: &session.ScreenState{Via: "run", Pid: 4242}, Process: &session.Process{Tmux: &session.Tmux{Pane: "%1"}}}, linux, Target{Via: ViaRun, Run: "/h/run/4242.sock"}, ""},
		{"mew run, no pid", session.Record{Screen: &session.ScreenState{Via: "run"}}, linux, Target{}, "answer in the terminal"},
		{"mew run in a home too deep for a socket", session.Record{Screen: &session.ScreenState{Via: "run", Pid: 4242}}, Host{GOOS: "linux", MewHome: "/" + strings.Repeat("d", 120)}, Target{}, "too long"},
	}
	for _, c := range cases {
		got := Plan(c.rec, c.host)
		why := got.Why
		got.Why = ""
		if got != c.want || (c.why != "" && !strings.Contains(why, c.why)) || (c.want.Via == "" && why == "") {
			t.Errorf("%s: %+v (%s), want %+v (%s)", c.name, got, why, c.want, c.why)
		}
	}
}

func TestWantFor(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := session.Choice{N: 1, Label: "Yes"}
	scanned := &session.ScreenState{Agent: "claude", State: session.ScreenBlocked, Rule: "claude/blocked#3", Prompt: "Do you…", Choices: []session.Choice{c}, Since: t0.Add(5 * time.Second), At: t0.Add(5 * time.Second)}
	followed := *scanned
	followed.Since = t0.Add(2 * time.Second)
	hook := &session.HookState{State: session.Waiting, Since: t0.Add(3 * time.Second)}
	cases := []struct {
		name    string
		rec     session.Record
		rule    string
		shownAt time.Time
	}{
		{"a screen read just now: when unknown", session.Record{Agent: "x", Screen: scanned}, "claude/blocked#3", time.Time{}},
		{"the hooks know when", session.Record{Agent: "claude", Screen: scanned, Hook: hook}, "claude/blocked#3", t0.Add(3 * time.Second)},
		{"a screen followed over time knows earlier", session.Record{Agent: "claude", Screen: &followed, Hook: hook}, "claude/blocked#3", t0.Add(2 * time.Second)},
		{"hook choices: no screen to match", session.Record{Agent: "claude", Hook: hook, Registry: &session.RegistryState{Status: "waiting", At: t0.Add(time.Second)}}, "", t0.Add(time.Second)},
	}
	for _, tc := range cases {
		w := WantFor(tc.rec, c)
		if w.Agent != "claude" || w.Rule != tc.rule || (tc.rule != "") != (w.Prompt != "") || !w.ShownAt.Equal(tc.shownAt) || w.Choice != c {
			t.Errorf("%s: %+v", tc.name, w)
		}
	}
}
