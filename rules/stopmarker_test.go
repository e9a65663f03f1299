package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// A stopped turn's marker (Codex's "■ Conversation interrupted", OpenCode's
// and Kilo's "▣ … · interrupted", Gemini CLI's "ℹ Request cancelled.")
// stays in the transcript. It says the turn was stopped only while it is
// the last thing above the input box: once a later turn ran below it, the
// idle screen is that turn's end (issue 35: Codex and OpenCode showed idle,
// never done, for every finished turn after a stopped one). The screens
// are the real CLIs' (e2e, MEW_E2E_SCREENS: testdata/screens).
func TestStopMarkerOnlyWhileLast(t *testing.T) {
	type want struct {
		interrupted, turnEnded bool
	}
	stopped, ended, plain := want{interrupted: true}, want{turnEnded: true}, want{}
	// Qwen Code draws "Request cancelled." over the denied call's row, or
	// (the e2e walk, Qwen 0.24.4) only the row, its status "-".
	// Gemini CLI with "Request cancelled" further up than 7 rows (a hook
	// status row that wrapped), and a turn later.
	geminiBox := []string{"? for shortcuts", strings.Repeat("─", 120), " Shift+Tab to accept edits", "", " >   Type your message or @path/to/file", "",
		" workspace (/directory)                       sandbox                 /model",
		" /tmp/proj                                    no sandbox    gemini-2.5-flash", ""}
	geminiTop := []string{"✦ Thinking it over slowly Thinking", "", "ℹ Request cancelled.", ""}
	gemini9th := slices.Concat(geminiTop, []string{"", "  Executing Hook: mew (1/2), { cat; echo; } >> '/tmp/observed-hooks.jsonl'", "  2>/dev/null"}, geminiBox)
	geminiAfter := slices.Concat(geminiTop, []string{" > please mew-e2e-text", "", "✦ Hello from the fake model.", ""}, geminiBox)
	// Copilot CLI without its sidebar (a narrower pane): blank rows are
	// blank, and a short later turn leaves the marker within 7 rows.
	copilotBox := []string{" ~/proj [⎇ master]", strings.Repeat("─", 80), "❯", strings.Repeat("─", 80), " ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab"}
	copilotStopped := append([]string{" ❯ please mew-bash", "", " ● Operation cancelled by user", ""}, copilotBox...)
	copilotAfter := append([]string{" ● Operation cancelled by user", "", " ❯ hi", "", " ● Hello.", ""}, copilotBox...)
	// pi 0.73.1 (the e2e walk): "Operation aborted" over its editor.
	piEditor := []string{strings.Repeat("─", 80), "", strings.Repeat("─", 80), "/tmp/proj (master)", "↑80 ↓40 0.0%/128k (auto)          (fake) fake-model"}
	piAborted := slices.Concat([]string{" please mew-e2e-slow", " Thinking it over slowly", " Operation aborted"}, piEditor)
	piAfter := slices.Concat([]string{" Operation aborted", " please mew-e2e-text", " Hello from the fake model."}, piEditor)
	cases := []struct {
		agent, name string
		rows        []string
		want        want
	}{
		{"codex", "declined", fixtureRows(t, "testdata/screens/codex-0.169.0/1-declined.txt"), stopped},
		{"codex", "the turn after the decline", fixtureRows(t, "testdata/screens/codex-0.169.0/2-turn-after-decline.txt"), ended},
		{"codex", "Esc while working", fixtureRows(t, "testdata/screens/codex-0.169.0/3-esc-while-working.txt"), stopped},
		{"codex", "a prompt typed after the Esc", fixtureRows(t, "testdata/screens/codex-0.169.0/4-typed-after-esc.txt"), stopped},
		{"codex", "recorded Esc (d-interrupt)", fixtureRows(t, filepath.Join(fixtures, "codex-0.169.0/d-interrupt/screens/b268d5e95403.txt")), stopped},
		{"opencode", "Esc while working", fixtureRows(t, "testdata/screens/opencode-1.18.33/1-esc-while-working.txt"), stopped},
		{"opencode", "the turn after the Esc", fixtureRows(t, "testdata/screens/opencode-1.18.33/2-turn-after-esc.txt"), ended},
		{"gemini", "Esc while working", fixtureRows(t, "testdata/screens/gemini-cli-0.61.0/1-esc-while-working.txt"), stopped},
		{"gemini", "Esc, 9th row from the bottom", gemini9th, stopped},
		{"gemini", "the turn after the Esc", geminiAfter, plain},
		{"copilot", "Esc on the dialog (census)", fixtureRows(t, filepath.Join(fixtures, "copilot-1.0.102/run-cop3/06-after-esc-deny.txt"))[1:], stopped},
		{"copilot", "Esc, no sidebar", copilotStopped, stopped},
		{"copilot", "the turn after the Esc, no sidebar", copilotAfter, plain},
		{"qwen", "Esc on the dialog (census)", fixtureRows(t, filepath.Join(fixtures, "qwen-code-0.24.4/run-qw2/06-after-esc-deny.txt"))[1:], stopped},
		{"qwen", "Esc on the dialog, no cancelled line (e2e walk)", slices.DeleteFunc(fixtureRows(t, filepath.Join(fixtures, "qwen-code-0.24.4/run-qw2/06-after-esc-deny.txt"))[1:],
			func(r string) bool { return strings.Contains(r, "Request cancelled") }), stopped},
		{"qwen", "Esc on the dialog, the scrollbar drawn (e2e walk)", fixtureRows(t, "testdata/screens/qwen-code-0.24.4/2-denied.txt"), stopped},
		{"pi", "Esc while working (e2e walk)", piAborted, stopped},
		{"pi", "the turn after the Esc", piAfter, plain},
		{"qwen", "the turn after the Esc (census)", fixtureRows(t, filepath.Join(fixtures, "qwen-code-0.24.4/run-qw2/08-done-after-tool.txt"))[1:], plain},
		// Kilo draws OpenCode 1.18's screens.
		{"kilo", "Esc while working", fixtureRows(t, "testdata/screens/opencode-1.18.33/1-esc-while-working.txt"), stopped},
		{"kilo", "the turn after the Esc", fixtureRows(t, "testdata/screens/opencode-1.18.33/2-turn-after-esc.txt"), ended},
	}
	for _, c := range cases {
		// Without the failed rules: an error row of an earlier turn above
		// (Gemini's real screen has one) is looked past by the tracker.
		res := rules.Embedded().Set(c.agent).ClassifyWithout(rules.Frame{Rows: c.rows}, session.ScreenFailed)
		if res.State != session.ScreenIdle || res.Interrupted != c.want.interrupted || res.TurnEnded != c.want.turnEnded {
			t.Errorf("%s, %s: %s (%s) interrupted=%v turnEnded=%v; want idle interrupted=%v turnEnded=%v",
				c.agent, c.name, res.State, res.Rule, res.Interrupted, res.TurnEnded, c.want.interrupted, c.want.turnEnded)
		}
	}
}

func fixtureRows(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
