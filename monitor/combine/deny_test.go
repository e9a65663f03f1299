package combine_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// Gemini CLI denied with Esc: the dialog goes and "ℹ Request cancelled." is
// drawn in the same frame, no hook fires. The screen's stop marker says the
// dialog was dismissed: idle at once, not the "answered" working that an
// approved dialog's first frames get (issue 35: working for ~0.5 s after
// the Esc, where the marker sat above the rule's last = 7 rows: the hook
// status row wrapped). The frames are the real CLI's (e2e
// TestGeminiDenyAndError); the second deny frame has the hook row wrapped
// and "? for shortcuts" on a row of its own.
func TestGeminiDenyIsNotAnswering(t *testing.T) {
	read := func(name string) []string {
		data, err := os.ReadFile("../../rules/testdata/screens/gemini-cli-0.61.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	dialog, denied := read("2-dialog.txt"), read("3-denied.txt")
	var wrapped []string
	for _, r := range denied {
		if strings.HasPrefix(r, "  Executing Hooks:") {
			wrapped = append(wrapped, "  Executing Hooks: mew (1/2), { cat; echo; } >> '/tmp/TestGeminiDenyAndError2485501271/001/observed-hooks.jsonl'", "  2>/dev/null", "? for shortcuts")
			continue
		}
		wrapped = append(wrapped, r)
	}
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name string
		rows []string
	}{{"as drawn", denied}, {"the hook row wrapped", wrapped}} {
		var tr screen.Tracker
		tr.Observe(set, rules.Frame{Rows: dialog}, t0.Add(500*time.Millisecond))
		tr.Observe(set, rules.Frame{Rows: c.rows}, t0.Add(time.Second))
		sc := tr.State
		sc.Via, sc.Pane = "tmux", "%1"
		h := &session.HookState{State: session.Waiting, Reason: session.ReasonPermission, Since: t0, At: t0, Source: "hook:Notification:permission_prompt"}
		got := combine.At(session.Record{ID: "g", Agent: "gemini", Hook: h, Screen: &sc}, combine.Alive, t0.Add(1100*time.Millisecond))
		if got.State != session.Idle {
			t.Errorf("%s: the deny shows %s by %s, want idle", c.name, got.State, got.Source)
		}
	}
}
