package monitor

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// A source's report is urgent (its pass runs at once, without the busy
// coalesce) only when it brings a session that needs the person where the
// source's previous report had none: a report that repeats a dialog
// already shown is coalesced like any other.
func TestNewlyNeedsYou(t *testing.T) {
	working := Observation{Fallback: "tmux:%1", Screen: &session.ScreenState{State: session.ScreenWorking}}
	blocked := Observation{Fallback: "tmux:%1", Screen: &session.ScreenState{State: session.ScreenBlocked}}
	other := Observation{Fallback: "tmux:%2", Screen: &session.ScreenState{State: session.ScreenBlocked}}
	waiting := Observation{ID: "s1", Registry: &session.RegistryState{Status: "waiting"}}
	done := Observation{ID: "s2", Log: &session.LogState{State: session.Done}}
	for _, c := range []struct {
		name          string
		before, after []Observation
		want          bool
	}{
		{"first report with a dialog", nil, []Observation{blocked}, true},
		{"dialog drawn", []Observation{working}, []Observation{blocked}, true},
		{"same dialog again", []Observation{blocked}, []Observation{blocked}, false},
		{"dialog on another pane", []Observation{blocked}, []Observation{blocked, other}, true},
		{"dialog gone", []Observation{blocked}, []Observation{working}, false},
		{"registry waiting", nil, []Observation{waiting}, true},
		{"log done", []Observation{{ID: "s2", Log: &session.LogState{State: session.Working}}}, []Observation{done}, true},
		{"nothing needs you", nil, []Observation{working}, false},
	} {
		if got := newlyNeedsYou(c.before, c.after); got != c.want {
			t.Errorf("%s: urgent %v, want %v", c.name, got, c.want)
		}
	}
}
