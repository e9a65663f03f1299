package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

const floorAmp = 1.0 // one screen of each state: every one must read right

// Amp's recorded screens, one of each state, named for it; done is idle on
// the screen (the tracker makes a turn that ran then went idle done).
func TestScoreAmp(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "amp-0.0.1790142911", "screens", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no Amp screens")
	}
	set := rules.Embedded().Set("amp")
	var s score
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		want := session.ScreenIdle
		for _, st := range []string{session.ScreenBlocked, session.ScreenWorking, session.ScreenExited} {
			if strings.Contains(name, st) {
				want = st
			}
		}
		if strings.Contains(name, "connecting") {
			want = session.ScreenWorking
		}
		rows := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		res := set.Classify(rules.Frame{Rows: rows})
		interrupted := strings.Contains(name, "interrupted")
		s.add(res.State == want && res.Interrupted == interrupted, fmt.Sprintf("%s: %s (%s, interrupted %v), want %s", name, res.State, res.Rule, res.Interrupted, want))
		// A reply below the last prompt is a finished turn (turn_end): the
		// done screens, not the fresh one nor the stopped one.
		if ended := strings.Contains(name, "done"); want == session.ScreenIdle && res.TurnEnded != ended {
			t.Errorf("%s: turn ended %v, want %v", name, res.TurnEnded, ended)
		}
		if res.State == session.ScreenBlocked {
			d := set.Dialog(rows, res)
			if len(d.Options) != 2 || d.Options[0].Label != "Allow Once" || !strings.Contains(d.Text, "rm -rf mew-probe-dir") {
				t.Errorf("%s: dialog %+v, want Allow Once and Reject with the command", name, d)
			}
		}
	}
	s.check(t, "amp 0.0.1790142911", floorAmp)
}
