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

// Qwen Code denied with Esc, its hooks installed and its pane read: the
// dialog goes and the denied call's row ("- Shell …") is the last thing
// above the input box, with no "Request cancelled." over it (the e2e
// conformance walk, Qwen 0.24.4). Nothing runs after a denial: idle, not
// the "answered" working an approved dialog's first frames get (issue 35:
// working for 0.2–0.6 s until Qwen's idle_prompt). The frames are its
// census's (testdata/fixtures/qwen-code-0.24.4), the cancelled line left
// out as the walk saw it.
func TestQwenDenyIsNotAnswering(t *testing.T) {
	read := func(name string) []string {
		data, err := os.ReadFile("../../testdata/fixtures/qwen-code-0.24.4/run-qw2/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, r := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:] { // a header row
			if !strings.Contains(r, "Request cancelled") {
				rows = append(rows, r)
			}
		}
		return rows
	}
	walk := func(name string) []string { // the walk's own frames, its scrollbar drawn
		data, err := os.ReadFile("../../rules/testdata/screens/qwen-code-0.24.4/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	set := rules.Embedded().Set("qwen")
	t0 := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name           string
		dialog, denied []string
	}{
		{"census", read("07-approval-2.txt"), read("06-after-esc-deny.txt")},
		{"walk", walk("1-dialog.txt"), walk("2-denied.txt")},
	} {
		var tr screen.Tracker
		tr.Observe(set, rules.Frame{Rows: c.dialog}, t0.Add(500*time.Millisecond))
		if tr.State.State != session.ScreenBlocked {
			t.Fatalf("%s: the dialog: %+v", c.name, tr.State)
		}
		tr.Observe(set, rules.Frame{Rows: c.denied}, t0.Add(time.Second))
		sc := tr.State
		sc.Via, sc.Pane = "tmux", "%1"
		h := &session.HookState{State: session.Waiting, Reason: session.ReasonPermission, Since: t0, At: t0, Source: "hook:PermissionRequest"}
		got := combine.At(session.Record{ID: "q", Agent: "qwen", Hook: h, Screen: &sc}, combine.Alive, t0.Add(1100*time.Millisecond))
		if got.State != session.Idle {
			t.Errorf("%s: the deny shows %s by %s, want idle", c.name, got.State, got.Source)
		}
	}
}
