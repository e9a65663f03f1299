package screen

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

func frame(s string) rules.Frame { return rules.Frame{Rows: strings.Split(s, "\n")} }

func TestTrackerMemory(t *testing.T) {
	set := rules.Embedded().Set("claude")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) bool {
		return tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second))
	}

	idle := claudeBox("? for shortcuts")
	working := "✻ Burrowing…\n" + claudeBox("esc to interrupt")
	prompt := " Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend"
	interrupted := "  ⎿  Interrupted · What should Claude do instead?\n\n" + idle

	if !step(0, idle) || tr.State.State != session.ScreenIdle || tr.State.TurnEnded {
		t.Fatalf("fresh idle: %+v", tr.State)
	}
	step(1, working)
	if !step(2, prompt) || tr.State.State != session.ScreenBlocked || tr.State.Reason != session.ReasonPermission || !tr.State.Since.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("prompt: %+v", tr.State)
	}
	if !strings.HasPrefix(tr.State.Prompt, "Do you want to proceed?\n1. Yes") {
		t.Errorf("prompt text %q", tr.State.Prompt)
	}
	if want := []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}}; !slices.Equal(tr.State.Choices, want) {
		t.Errorf("choices %+v, want %+v", tr.State.Choices, want)
	}
	// A blank and an unrecognised frame keep the state.
	if step(3, "") || step(4, "half drawn ─────") || tr.State.State != session.ScreenBlocked {
		t.Fatalf("blank frame changed the state: %+v", tr.State)
	}
	step(5, working)
	if !tr.State.Unblocked.Equal(t0.Add(5 * time.Second)) {
		t.Errorf("unblocked at %v", tr.State.Unblocked)
	}
	step(6, idle)
	if !tr.State.TurnEnded {
		t.Errorf("working → idle is a finished turn: %+v", tr.State)
	}
	step(7, idle)
	if !tr.State.TurnEnded {
		t.Errorf("the finished turn was forgotten on the next frame")
	}
	step(8, working)
	step(9, interrupted)
	if tr.State.TurnEnded || tr.State.State != session.ScreenIdle {
		t.Errorf("an interrupted turn is not done: %+v", tr.State)
	}
	// First sight of a screen whose turn already ended.
	var fresh Tracker
	fresh.Observe(set, frame("● Done.\n✻ Worked for 2s · done 7:04 PM\n"+idle), t0)
	if !fresh.State.TurnEnded {
		t.Errorf("the finished-turn line was not read: %+v", fresh.State)
	}
}

// claudeBox is Claude Code 2.1.328's input box as it draws it at the
// bottom of the screen, with status on its footer row.
func claudeBox(status string) string {
	rule := strings.Repeat("─", 60)
	return rule + "\n❯\u00a0\n" + rule + "\n  ⏸ manual mode on · " + status
}

// Esc on a permission prompt leaves "⎿ Interrupted · What should Claude do
// instead?" in the transcript; the next turn that finishes is done, not
// idle, while that line is still on the screen (issue 22: every later turn
// read idle while it was anywhere on the visible rows).
func TestTrackerInterruptedLineScrolledIntoTheTranscript(t *testing.T) {
	set := rules.Embedded().Set("claude")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) {
		tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second))
	}
	bash := "❯ please bash\n\n● Creating a file\n"
	step(0, bash+" Do you want to proceed?\n ❯ 1. Yes\n   2. No\n\n Esc to cancel · Tab to amend")
	if tr.State.State != session.ScreenBlocked {
		t.Fatalf("the dialog: %+v", tr.State)
	}
	// As Claude Code 2.1.328 drew it in tmux: the transcript ends well
	// above the input box, a tip row over the box.
	escaped := bash + "  ⎿ \u00a0Interrupted · What should Claude do instead?\n" + strings.Repeat("\n", 16) +
		"                  tmux focus-events off · add 'set -g focus-events on' to ~/.tmux.conf\n"
	step(1, escaped+claudeBox("? for shortcuts"))
	if tr.State.State != session.ScreenIdle || !tr.State.Interrupted || tr.State.TurnEnded {
		t.Fatalf("Esc on the dialog: %+v, want idle, interrupted", tr.State)
	}
	next := escaped + "❯ please text\n\n"
	step(2, next+"✻ Burrowing…\n"+claudeBox("esc to interrupt"))
	step(3, next+"● Here you are.\n\n✻ Worked for 2s\n"+claudeBox("? for shortcuts"))
	if tr.State.State != session.ScreenIdle || tr.State.Interrupted || !tr.State.TurnEnded {
		t.Errorf("the next turn finished with the old Interrupted line above it: %+v, want idle, turn ended", tr.State)
	}
	// Esc again, on the new turn: interrupted again.
	step(4, next+"● Here\n  ⎿  Interrupted · What should Claude do instead?\n"+claudeBox("? for shortcuts"))
	if !tr.State.Interrupted || tr.State.TurnEnded {
		t.Errorf("a second Esc: %+v, want interrupted", tr.State)
	}
}

// geminiBox is Gemini CLI 0.61.0's bottom as it draws it in a 120×32 pane
// (the conformance walk's screens): the status row (a spinner row while a
// turn or its hooks run, "? for shortcuts" else), the input box under its
// top rule, the footer.
func geminiBox(status string) string {
	if status == "" {
		status = strings.Repeat(" ", 104) + "? for shortcuts"
	}
	return "\n" + status + "\n" + strings.Repeat("─", 120) + "\n Shift+Tab to accept edits\n\n" +
		" >   Type your message or @path/to/file\n\n" +
		" workspace (/directory)                                   sandbox                                                /model\n" +
		" ~/proj                                                   no sandbox                                   gemini-2.5-flash"
}

// geminiError is an API error as Gemini CLI draws it: the error row, then
// its hint wrapped onto a second row.
func geminiError(msg string) string {
	return "✕ [API Error: " + msg + "]\n" +
		"ℹ This request failed. Press F12 for diagnostics, or run /settings and change \"Error Verbosity\" to full for\n" +
		"  details.\n"
}

func TestTrackerOldErrorLineIsNotANewFailure(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := geminiBox("")
	thinking := geminiBox(" ⠙ Thinking… (esc to cancel, 0s)")
	first := " > first\n\n" + geminiError("500 Internal Server Error")
	step(0, idle)
	step(1, " > first\n"+thinking)
	step(2, first+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("a turn that ended in an API error: %+v", tr.State)
	}
	step(3, first+" > second\n"+thinking)
	if tr.State.State != session.ScreenWorking {
		t.Fatalf("next turn: %+v", tr.State)
	}
	step(4, first+" > second\n\n✦ Fine now.\n"+idle)
	if tr.State.State != session.ScreenIdle || !tr.State.TurnEnded {
		t.Fatalf("the old error line made a good turn look failed: %+v", tr.State)
	}
	step(5, " > second\n\n✦ Fine now.\n > third\n"+thinking)
	step(6, " > second\n\n✦ Fine now.\n > third\n\n"+geminiError("429 Too Many Requests")+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("a new error after a good turn: %+v", tr.State)
	}
}

// A short turn that failed between two reads, after an earlier turn that
// failed: the screen never saw it run, but its new error row is a new
// failure, and its time is now (issue 22: Gemini's API error stayed done
// for 150 s; the screen's failed was older than the turn's end).
func TestTrackerSecondErrorUnseenTurnIsANewFailure(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := geminiBox("")
	first := " > first\n\n" + geminiError("500 Internal Server Error")
	step(0, " > first\n"+geminiBox(" ⠋ Thinking… (esc to cancel, 1s)"))
	step(1, first+idle)
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(time.Second)) {
		t.Fatalf("the first failure: %+v", tr.State)
	}
	step(2, first+idle)
	if !tr.State.Since.Equal(t0.Add(time.Second)) {
		t.Fatalf("the same error read again moved its time: %+v", tr.State)
	}
	step(9, first+" > second\n\n"+geminiError("500 Internal Server Error")+idle)
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(9*time.Second)) {
		t.Errorf("a second error, its turn unseen: %+v, want failed since t0+9s", tr.State)
	}
	// Another error text, its turn unseen too.
	step(12, first+" > second\n\n"+geminiError("500 Internal Server Error")+" > third\n\n"+geminiError("429 Too Many Requests")+idle)
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(12*time.Second)) {
		t.Errorf("a third error of another text, its turn unseen: %+v, want failed since t0+12s", tr.State)
	}
}

// The same error again, its turn seen running: a new failure, though the
// earlier turn's error row reads the same (the row's text alone took it
// for the earlier one, and the turn read done).
func TestTrackerSameErrorAgainIsANewFailure(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	first := " > please\n\n" + geminiError("scripted bad request")
	step(0, " > please\n"+geminiBox(" ⠋ Thinking… (esc to cancel, 0s)"))
	step(1, first+geminiBox(""))
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("the first failure: %+v", tr.State)
	}
	step(2, first+" > please\n"+geminiBox(" ⠋ Thinking… (esc to cancel, 0s)"))
	step(3, first+" > please\n\n"+geminiError("scripted bad request")+geminiBox(""))
	if tr.State.State != session.ScreenFailed || !tr.State.Since.Equal(t0.Add(3*time.Second)) {
		t.Errorf("the same error again: %+v, want failed since t0+3s", tr.State)
	}
}

// Gemini CLI runs its end-of-turn hooks after an API error with its
// spinner up: the screen reads working, but the error of this turn is
// drawn (ErrorShown); an error left from an earlier turn is not this one's.
func TestTrackerErrorShownWhileHooksRun(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	var tr Tracker
	step := func(i int, screen string) { tr.Observe(set, frame(screen), t0.Add(time.Duration(i)*time.Second)) }
	idle := geminiBox("")
	hooks := geminiBox(" ⠸ Executing Hooks: mew-hook")
	first := " > first\n\n" + geminiError("400 Bad Request")
	step(0, " > first\n"+geminiBox(" ⠋ Thinking… (esc to cancel, 1s)"))
	if tr.State.State != session.ScreenWorking || tr.State.ErrorShown {
		t.Fatalf("the turn runs: %+v", tr.State)
	}
	step(1, first+hooks)
	if tr.State.State != session.ScreenWorking || !tr.State.ErrorShown {
		t.Fatalf("the error drawn while the hooks run: %+v, want working with the error shown", tr.State)
	}
	step(2, first+idle)
	if tr.State.State != session.ScreenFailed {
		t.Fatalf("the hooks done: %+v", tr.State)
	}
	step(3, first+" > second\n"+hooks)
	if tr.State.State != session.ScreenWorking || tr.State.ErrorShown {
		t.Errorf("the next turn starts under the old error: %+v, want working, no error of its own", tr.State)
	}
}

// A turn whose error is already drawn when the screen first reads it
// running (Gemini CLI runs its hooks with the spinner up after an API
// error; a one-shot `mew status` reads the pane every few hundred ms): the
// error is that turn's, not one left from before it. It was taken for an
// old one, so the one-shot mode showed the turn idle, then done by its
// Stop hook, never failed (TestGeminiDenyAndError, under three CPU hogs).
// The memory of a one-shot read carries what was on screen before the turn.
func TestTrackerErrorDrawnByTheFirstReadOfTheTurn(t *testing.T) {
	set := rules.Embedded().Set("gemini")
	t0 := time.Unix(1000, 0)
	idle := geminiBox("")
	hooks := geminiBox(" ⠸ Executing Hooks: mew-hook")
	fine := " > first\n\n✦ Fine.\n"
	screens := []string{
		fine + idle,
		fine + " > second\n\n" + geminiError("400 Bad Request") + hooks,
		fine + " > second\n\n" + geminiError("400 Bad Request") + idle,
	}
	for _, oneShot := range []bool{false, true} {
		var tr Tracker
		for i, sc := range screens {
			if oneShot { // a fresh tracker for every read, as `mew status` has
				var next Tracker
				next.Restore(tr.Memory())
				tr = next
			}
			tr.Observe(set, frame(sc), t0.Add(time.Duration(i)*time.Second))
		}
		if tr.State.State != session.ScreenFailed {
			t.Errorf("one-shot %v: %+v, want failed", oneShot, tr.State)
		}
	}
	// An error that was there before the turn stays the earlier turn's.
	var tr Tracker
	old := " > first\n\n" + geminiError("500 Internal Server Error")
	tr.Observe(set, frame(old+idle), t0)
	tr.Observe(set, frame(old+" > second\n"+hooks), t0.Add(time.Second))
	tr.Observe(set, frame(old+" > second\n\n✦ Fine now.\n"+idle), t0.Add(2*time.Second))
	if tr.State.State != session.ScreenIdle || !tr.State.TurnEnded {
		t.Errorf("an error from before the turn: %+v, want a finished turn", tr.State)
	}
}

// ampScreen is one of Amp's recorded screens (testdata/fixtures).
func ampScreen(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "amp-0.0.1790142911", "screens", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimRight(string(data), "\n")
}

// Amp draws its approval dialog above its input box, whose border keeps the
// turn's status word ("Running Tools"): the turn is seen running on the
// dialog's own frames. A turn that goes on after the answer and ends before
// the next read is a finished turn (issue 24: it read idle when no read came
// between the answer and the end); one the person stopped is not, and a
// dialog drawn with no turn shown behind it (Claude's, Codex's: none of
// their recorded dialogs shows their working rows) stays as before.
func TestTrackerTurnSeenRunningBehindTheDialog(t *testing.T) {
	// Amp's rules without their turn_end (a reply below the last prompt),
	// which would say the same of these screens: the tracker's rule alone.
	data, err := os.ReadFile(filepath.Join("..", "rules", "defaults", "amp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	noEnd := regexp.MustCompile(`(?s)\nturn_end = \[.*?\n\]\n`).ReplaceAll(data, []byte("\n"))
	amp, _, err := rules.Parse("amp.toml", noEnd)
	if err != nil || len(amp.TurnEnd) != 0 || len(noEnd) == len(data) {
		t.Fatalf("amp.toml without turn_end: %v", err)
	}
	claude := rules.Embedded().Set("claude")
	dialog := ampScreen(t, "05-blocked-approval")
	// The same dialog with the input box's border bare: no turn shown.
	bare := regexp.MustCompile(`(?m)^╰ ≈ Running Tools ─+`).ReplaceAllStringFunc(dialog, func(s string) string {
		return "╰" + strings.Repeat("─", utf8.RuneCountInString(s)-1)
	})
	if bare == dialog {
		t.Fatal("the dialog's status word was not found")
	}
	claudeDialog := " Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend"
	cases := []struct {
		name   string
		set    *rules.Set
		frames []string
		// want is the last frame's reading.
		state                  string
		turnEnded, interrupted bool
	}{
		{"allowed, the turn ended unseen", amp, []string{dialog, ampScreen(t, "06-done")}, session.ScreenIdle, true, false},
		{"allowed, read running after", amp, []string{dialog, ampScreen(t, "04-working-running-tools"), ampScreen(t, "06-done")}, session.ScreenIdle, true, false},
		{"rejected: Amp's turn goes on to a reply", amp, []string{dialog, ampScreen(t, "07-rejected-done")}, session.ScreenIdle, true, false},
		{"dialog read twice", amp, []string{dialog, dialog, ampScreen(t, "06-done")}, session.ScreenIdle, true, false},
		{"stopped: the prompt left last", amp, []string{dialog, ampScreen(t, "09-idle-interrupted")}, session.ScreenIdle, false, true},
		{"no turn shown behind the dialog", amp, []string{bare, ampScreen(t, "06-done")}, session.ScreenIdle, false, false},
		{"running once, then a bare dialog", amp, []string{dialog, ampScreen(t, "06-done"), bare, ampScreen(t, "06-done")}, session.ScreenIdle, false, false},
		{"Claude: dismissed, nothing drawn", claude, []string{claudeDialog, claudeBox("? for shortcuts")}, session.ScreenIdle, false, false},
	}
	t0 := time.Unix(1000, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tr Tracker
			for i, f := range c.frames {
				tr.Observe(c.set, frame(f), t0.Add(time.Duration(i)*time.Second))
			}
			got := tr.State
			if got.State != c.state || got.TurnEnded != c.turnEnded || got.Interrupted != c.interrupted {
				t.Errorf("%s (%s), turn ended %v, interrupted %v; want %s, %v, %v", got.State, got.Rule, got.TurnEnded, got.Interrupted, c.state, c.turnEnded, c.interrupted)
			}
		})
	}

	// A one-shot `mew status` reads the dialog in one run and the end in the
	// next: its memory keeps that the turn ran behind the dialog.
	var first, next Tracker
	first.Observe(amp, frame(dialog), t0)
	next.Restore(first.Memory())
	next.Observe(amp, frame(ampScreen(t, "06-done")), t0.Add(time.Second))
	if !next.State.TurnEnded {
		t.Errorf("after a restore: %+v, want the turn ended", next.State)
	}
}

// Amp draws the bare prompt for a moment in a running turn too (its status
// word goes between "Connecting" and the stream), which its interrupted
// rule reads as a stop; a reply below that prompt (turn_end) is the turn
// that ran, even when no read between saw it working. A real stop keeps the
// prompt last.
func TestTrackerAmpReplyAfterABarePrompt(t *testing.T) {
	amp := rules.Embedded().Set("amp")
	cases := []struct {
		name      string
		frames    []string
		turnEnded bool
	}{
		{"the bare prompt mid-turn, then the reply", []string{"03-working-streaming", "09-idle-interrupted", "06-done"}, true},
		{"stopped: the prompt stays last", []string{"03-working-streaming", "09-idle-interrupted", "09-idle-interrupted"}, false},
		{"first sight of a finished turn", []string{"06-done"}, true},
		{"first sight of a fresh Amp", []string{"02-idle"}, false},
	}
	t0 := time.Unix(1000, 0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tr Tracker
			for i, name := range c.frames {
				tr.Observe(amp, frame(ampScreen(t, name)), t0.Add(time.Duration(i)*time.Second))
			}
			if tr.State.State != session.ScreenIdle || tr.State.TurnEnded != c.turnEnded {
				t.Errorf("%s (%s), turn ended %v; want idle, %v", tr.State.State, tr.State.Rule, tr.State.TurnEnded, c.turnEnded)
			}
		})
	}
}

// The screen state carries the agent's settle time (combine waits that long
// for the screen after a reported end of turn).
func TestTrackerCarriesTheAgentsSettle(t *testing.T) {
	var tr Tracker
	tr.Observe(rules.Embedded().Set("gemini"), frame(" >   Type your message or @path/to/file"), time.Unix(1000, 0))
	if got := tr.State.Settle(); got != time.Second {
		t.Errorf("Gemini CLI's screen settles in %v, want 1s", got)
	}
	var claude Tracker
	claude.Observe(rules.Embedded().Set("claude"), frame("❯ "), time.Unix(1000, 0))
	if got := claude.State.Settle(); got != session.ScreenSettle {
		t.Errorf("Claude Code's screen settles in %v, want the default %v", got, session.ScreenSettle)
	}
}

// Codex spins its title for a moment at start-up (its recorded pane.raw:
// "proj", "⠋ proj", "proj" before the first prompt), also after its hook
// review: that working frame and the idle composer after it are no turn
// (issue 35: the one-shot `mew status` showed a fresh Codex done for
// 1–2.5 s). A turn is: Codex draws "Worked for" after every one.
func TestTrackerCodexStartupSpinnerIsNoTurn(t *testing.T) {
	set := rules.Embedded().Set("codex")
	t0 := time.Unix(1000, 0)
	fresh := strings.Split("\n  >_ OpenAI Codex (v0.169.0)\n     ~/proj\n\n\n› Ask Codex to do anything\n\n  gpt-5.1-codex default · ~/proj", "\n")
	var tr Tracker
	tr.Observe(set, rules.Frame{Rows: fresh, Title: "proj"}, t0)
	tr.Observe(set, rules.Frame{Rows: fresh, Title: "⠋ proj"}, t0.Add(100*time.Millisecond))
	if tr.State.State != session.ScreenWorking {
		t.Fatalf("the start-up spinner: %+v", tr.State)
	}
	tr.Observe(set, rules.Frame{Rows: fresh, Title: "proj"}, t0.Add(200*time.Millisecond))
	if tr.State.State != session.ScreenIdle || tr.State.TurnEnded {
		t.Fatalf("after the start-up spinner: %s turnEnded=%v, want idle, no turn", tr.State.State, tr.State.TurnEnded)
	}
	turn := append(fresh[:4:4], "› hello", "", "• Hello from the scripted model.", "", "  Worked for <1s • 08:52", "", "› Ask Codex to do anything", "", "  gpt-5.1-codex default · ~/proj")
	tr.Observe(set, rules.Frame{Rows: turn[:7], Title: "⠙ proj"}, t0.Add(time.Second))
	tr.Observe(set, rules.Frame{Rows: turn, Title: "proj"}, t0.Add(2*time.Second))
	if tr.State.State != session.ScreenIdle || !tr.State.TurnEnded {
		t.Fatalf("after a turn: %s turnEnded=%v, want idle, turn ended", tr.State.State, tr.State.TurnEnded)
	}
}

// OpenCode without its plugin (`mew run -- opencode`, a plain pane): only
// its screen says how a turn ended. A finished turn's model line gets the
// duration ("▣  Build · Fake Model · 1.1s"); an API error (its message a
// passing toast) and a rejected permission leave it bare, an Esc
// "· interrupted". None of those is done (issue 35: all three read as
// done), also with an earlier finished turn's line above; the API error,
// its model line right under the prompt, is failed. Screens of the
// real CLI (e2e, rules/testdata/screens).
func TestTrackerOpenCodeScreenOnlyTurnEnds(t *testing.T) {
	read := func(name string) []string {
		data, err := os.ReadFile("../rules/testdata/screens/opencode-1.18.33/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	working := read("4-rejected-working.txt")
	finished := read("2-turn-after-esc.txt")
	apiError := read("3-api-error.txt")
	// The error turn below an earlier finished one: the bare model line is
	// the last one.
	var errorAfter []string
	for _, r := range finished {
		if strings.Contains(r, "╹▀") {
			errorAfter = append(errorAfter, "  ┃", "  ┃  please mew-e2e-error", "  ┃", "", "     ▣  Build · Fake Model", "")
		}
		errorAfter = append(errorAfter, r)
	}
	errorAfter[1] += "   ┃  scripted bad request  ┃" // the error's toast
	// A retrying turn stopped with Esc Esc leaves the bare model line and
	// no toast (Kilo's census): idle.
	stoppedRetry := slices.Clone(apiError)
	toast := regexp.MustCompile(`\s*┃[^┃]*┃\s*$`)
	for i, r := range stoppedRetry {
		stoppedRetry[i] = toast.ReplaceAllString(r, "")
	}
	for _, agent := range []string{"opencode", "kilo"} {
		set := rules.Embedded().Set(agent)
		for _, c := range []struct {
			name  string
			after []string
			done  bool
			state string
		}{
			{"a finished turn", finished, true, session.ScreenIdle},
			{"a rejected permission", read("5-rejected-idle.txt"), false, session.ScreenIdle},
			{"an API error", apiError, false, session.ScreenFailed},
			{"an API error after a finished turn", errorAfter, false, session.ScreenFailed},
			{"a retrying turn stopped", stoppedRetry, false, session.ScreenIdle},
			{"Esc", read("1-esc-while-working.txt"), false, session.ScreenIdle},
		} {
			var tr Tracker
			t0 := time.Unix(1000, 0)
			tr.Observe(set, rules.Frame{Rows: working}, t0)
			if tr.State.State != session.ScreenWorking {
				t.Fatalf("%s: the working frame: %+v", agent, tr.State)
			}
			tr.Observe(set, rules.Frame{Rows: c.after}, t0.Add(time.Second))
			if tr.State.State != c.state || tr.State.TurnEnded != c.done {
				t.Errorf("%s, %s: %s turnEnded=%v, want %s turnEnded=%v", agent, c.name, tr.State.State, tr.State.TurnEnded, c.state, c.done)
			}
		}
	}
}

// Grok CLI answers a denied call with a reply it streams with no working
// line, only a cursor row (█) under it over the input box (the e2e
// conformance walk, Grok CLI 0.0.34): working while it shows, then a
// finished turn (issue 35: idle throughout, never done).
func TestTrackerGrokAnswerAfterDeny(t *testing.T) {
	read := func(name string) []string {
		data, err := os.ReadFile("../rules/testdata/screens/grok-cli-0.0.34/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	set := rules.Embedded().Set("grok")
	var tr Tracker
	t0 := time.Unix(1000, 0)
	tr.Observe(set, rules.Frame{Rows: read("1-answer-after-deny.txt")}, t0)
	if tr.State.State != session.ScreenWorking {
		t.Fatalf("the answer streaming: %s (%s), want working", tr.State.State, tr.State.Rule)
	}
	tr.Observe(set, rules.Frame{Rows: read("2-answered.txt")}, t0.Add(2*time.Second))
	if tr.State.State != session.ScreenIdle || tr.State.Interrupted || !tr.State.TurnEnded {
		t.Errorf("the answer done: %s interrupted=%v turnEnded=%v (%s), want idle, a finished turn", tr.State.State, tr.State.Interrupted, tr.State.TurnEnded, tr.State.Rule)
	}
}

// One dialog noticed by two of an agent's rules is one prompt; another
// text, or another rule with no text to compare, is not.
func TestSameDialog(t *testing.T) {
	for _, c := range []struct {
		wasRule, wasPrompt, rule, prompt string
		want                             bool
	}{
		{"codex/blocked#5", "Run touch x?", "codex/blocked#5", "Run touch x?", true},
		{"codex/blocked#5", "Run touch x?", "codex/blocked#4", "Run touch x?", true},
		{"codex/blocked#5", "Run touch x?", "codex/blocked#4", "Run touch y?", false},
		{"codex/blocked#5", "", "codex/blocked#4", "", false},
		{"codex/blocked#5", "", "codex/blocked#5", "", true},
		{"", "", "codex/blocked#4", "", true},
		{"codex/blocked#5", "Run touch x?", "codex/blocked#5", "", false},
	} {
		if got := SameDialog(c.wasRule, c.wasPrompt, c.rule, c.prompt); got != c.want {
			t.Errorf("SameDialog(%q, %q, %q, %q) = %v, want %v", c.wasRule, c.wasPrompt, c.rule, c.prompt, got, c.want)
		}
	}
}
