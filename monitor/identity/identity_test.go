package identity

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

func TestSameProcess(t *testing.T) {
	rec := session.Record{Process: &session.Process{Pid: 10, StartMs: 5000}}
	for _, c := range []struct {
		p    session.Process
		want bool
	}{
		{session.Process{Pid: 10, StartMs: 5000}, true},
		{session.Process{Pid: 10, StartMs: 6900}, true},  // two clocks' slack
		{session.Process{Pid: 10, StartMs: 9000}, false}, // a reused pid
		{session.Process{Pid: 10}, true},                 // a start time unknown
		{session.Process{Pid: 11, StartMs: 5000}, false},
		{session.Process{}, false},
	} {
		if got := SameProcess(rec, c.p); got != c.want {
			t.Errorf("%+v: %v, want %v", c.p, got, c.want)
		}
	}
	// A terminal UI that quit is still its process where both start times
	// say so; with one unknown, a gone UI's pid may be another's now.
	gone := session.Record{Terminal: &session.Terminal{Process: session.Process{Pid: 20, StartMs: 7000}, Gone: true}}
	if !SameProcess(gone, session.Process{Pid: 20, StartMs: 7000}) || SameProcess(gone, session.Process{Pid: 20}) {
		t.Error("a gone terminal UI")
	}
}

func TestWraps(t *testing.T) {
	rec := session.Record{Process: &session.Process{Pid: 30, Ancestors: []session.Ancestor{
		{Pid: 29, Name: "amp"}, {Pid: 28, Name: "node"}, {Pid: 27, Name: "zsh"}, {Pid: 26, Name: "tmux: server"},
	}}}
	for pid, want := range map[int]bool{29: true, 28: true, 27: true, 26: false, 30: false, 0: false} {
		if got := Wraps(rec, session.Process{Pid: pid}); got != want {
			t.Errorf("pid %d: %v, want %v", pid, got, want)
		}
	}
}

func TestSamePaneNamesItsServer(t *testing.T) {
	rec := session.Record{Process: &session.Process{Tmux: &session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%0"}}}
	for _, c := range []struct {
		t    session.Tmux
		want bool
	}{
		{session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%0"}, true},
		{session.Tmux{Socket: "/tmp/tmux-1/other", Pane: "%0"}, false},
		{session.Tmux{Pane: "%0"}, true}, // a server not named: any
		{session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%1"}, false},
	} {
		if got := SamePane(rec, c.t); got != c.want {
			t.Errorf("%+v: %v, want %v", c.t, got, c.want)
		}
	}
	reg := session.Record{Registry: &session.RegistryState{Tmux: "main:@1.%0"}, Process: rec.Process}
	if !SamePane(reg, session.Tmux{Socket: "/tmp/tmux-1/default", Pane: "%0"}) || SamePane(reg, session.Tmux{Socket: "/x", Pane: "%0"}) {
		t.Error("the registry's pane")
	}
}
