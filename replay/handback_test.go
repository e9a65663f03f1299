package replay_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/replay"
)

// The recorded background-subagent run with Claude Code's registry saying
// idle 40 ms after each SubagentStop, as 2.1.332 did live (issue 22): the
// turn Claude Code starts by itself to hand the result over follows 0.07-
// 0.18 s later. No done may show in between. Cut after the first hand-back
// (no turn follows), the session is done once session.HandBackHold passed.
func TestHandBackShowsNoDoneBetweenTurns(t *testing.T) {
	runs, err := fixture.Load(fixture.Root("2.1.328"))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(runs, func(r fixture.Run) bool { return r.Name == "subagent" })
	if i < 0 {
		t.Fatal("no subagent run in the fixtures")
	}
	var withIdle []recording.Event
	var lastReg json.RawMessage
	firstStop := -1.0
	for _, e := range runs[i].Events {
		withIdle = append(withIdle, e)
		if e.Source == "registry" && !e.IsNull() {
			lastReg = e.Doc
		}
		var d struct {
			Event string `json:"hook_event_name"`
		}
		if e.Source == "hook" && json.Unmarshal(e.Doc, &d) == nil && d.Event == "SubagentStop" {
			var reg map[string]any
			if json.Unmarshal(lastReg, &reg) != nil {
				t.Fatal("no registry document before the SubagentStop")
			}
			reg["status"] = "idle"
			doc, _ := json.Marshal(reg)
			withIdle = append(withIdle, recording.Event{T: e.T + 0.04, Source: "registry", Doc: doc})
			if firstStop < 0 {
				firstStop = e.T
			}
		}
	}
	slices.SortStableFunc(withIdle, func(a, b recording.Event) int {
		switch {
		case a.T < b.T:
			return -1
		case a.T > b.T:
			return 1
		}
		return 0
	})
	got, err := replay.Events(withIdle, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if c.State == "done" {
			t.Errorf("a done showed at %.3f s (%s) between a subagent's hand-back and the turn it starts: %v", c.T, c.Source, replay.Labels(got))
		}
	}

	// No turn after the first hand-back: done, at most the hold (1.5 s)
	// plus the replay's step later.
	var cut []recording.Event
	for _, e := range withIdle {
		if e.T <= firstStop+0.05 {
			cut = append(cut, e)
		}
	}
	end := firstStop + 4
	cut = append(cut, recording.Event{T: end, Source: "registry", Doc: nil})
	got, err = replay.Events(cut, "")
	if err != nil {
		t.Fatal(err)
	}
	doneAt := -1.0
	for _, c := range got {
		if c.State == "done" && c.T > firstStop {
			doneAt = c.T
			break
		}
	}
	if doneAt < 0 || doneAt < firstStop+1.4 || doneAt > firstStop+2.0 {
		t.Fatalf("hand-back with no turn after it: done at %.3f s, want %.1f-%.1f s (changes %s)",
			doneAt, firstStop+1.4, firstStop+2.0, strings.Join(replay.Labels(got), " "))
	}
}
