package e2e

// Codex's cells of the conformance matrix (issue 35) that no older scenario
// walks: each session walks several classes in a row, in one mode.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

var (
	codexQuoted   = regexp.MustCompile(`(?s)The dialog reads:.*Press enter to confirm or esc to cancel`)
	codexQuestion = regexp.MustCompile(`(?s)Which framework\?.*React.*enter to submit answer`)
)

// codexWalk walks the main classes in one session: a fresh pane, a turn,
// an approval allowed, one declined with Esc and the next turn, a reply
// quoting the dialog, a question (request_user_input), an API error, Esc
// while a reply streams, /quit.
func codexWalk(t *testing.T, s *scen, mode string) {
	// The goals: 0.5 s with hooks, 1 s from the screen alone (issue 35).
	goal := fast
	if mode == "screen" {
		goal = time.Second
	}
	if mode == "hooks" {
		s.freshNotDone()
	} else {
		s.freshPaneIdle()
	}

	sent := s.codexPrompt(fakeresponses.Prompt(fakeresponses.Text))
	s.expect(mode+": turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), goal, stateIs(session.Done))

	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect(mode+": approval shown → waiting(permission)", shown.At, goal, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect(mode+": approved → not waiting", a.Gone, goal, listedAndNot(session.Waiting))
	s.expect(mode+": approved turn ended → done", s.turnOver(a.Pressed, "task_complete", nil), goal, stateIs(session.Done))

	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err = s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect(mode+": approval shown again → waiting(permission)", shown.At, goal, waitingFor(session.ReasonPermission))
	a, err = s.r.Answer(codexDialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect(mode+": declined with Esc → not waiting", a.Gone, goal, listedAndNot(session.Waiting))
	s.turnOver(a.Pressed, "turn_aborted", nil)
	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Text))
	end := s.turnOver(sent, "task_complete", nil)
	res := s.expect(mode+": the turn after the decline → done", end, goal, stateIs(session.Done))
	// From the sample that showed it done: the samples before may still
	// show the declined turn's idle (latency, judged above).
	s.never(mode+": the turn after the decline: never idle after it", laterTime(res.Sample.End, end), end.Add(settleAfter), func(sh session.Shown, listed bool) bool {
		return !listed || sh.State == session.Idle
	})

	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Quote))
	if _, err := s.r.WaitScreen(sent, codexQuoted, turn); err != nil {
		t.Fatal(err)
	}
	end = s.turnOver(sent, "task_complete", nil)
	s.expect(mode+": a reply quoting the dialog → done", end, goal, stateIs(session.Done))
	s.never(mode+": a reply quoting the dialog: never waiting", sent, end.Add(settleAfter), shows(session.Waiting))

	s.codexQuestion(mode+": ", goal)

	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Error))
	started := s.rolloutAfter(sent, "task_started").At
	failed := s.rolloutAfter(sent, "task_complete")
	if !failed.Error {
		t.Fatalf("the turn ended without an error: %+v", failed)
	}
	s.expect(mode+": API error → failed", failed.At, goal, stateIs(session.Failed))
	s.never(mode+": API error: never done on the way", s.sawStart(started), failed.At.Add(settleAfter), shows(session.Done))

	sent = s.codexPrompt(fakeresponses.Prompt(fakeresponses.Slow))
	if _, err := s.r.WaitScreen(sent, codexStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	stopped := s.turnOver(esc, "turn_aborted", nil)
	s.expect(mode+": Esc while streaming → idle", stopped, goal, stateIs(session.Idle))
	s.never(mode+": Esc while streaming: never done", esc, stopped.Add(settleAfter), shows(session.Done))

	s.submit("/quit")
	s.expect(mode+": /quit → exited", s.paneDead(gone), exit, exitedOrGone)
}

// Screen only: no `mew install` (no hooks), the pane read, with Codex's
// own rollout.
func TestCodexConformScreen(t *testing.T) {
	codexWalk(t, startCodex(t, codexOpts{noInstall: true, launch: askFeature}), "screen")
}

// Hooks only: installed and trusted, the pane not read (Mew looks at a
// tmux server that does not run), with Codex's rollout.
func TestCodexConformHooks(t *testing.T) {
	codexWalk(t, startCodex(t, codexOpts{launch: func(o *driver.Options) { hideTmux(o); askFeature(o) }}), "hooks")
}

// npmGlobalCodex lays out what `npm install -g @openai/codex` makes
// (<prefix>/bin/codex → the package's bin/codex.js, run by node, which
// starts the native binary) and returns <prefix>/bin/codex.
func npmGlobalCodex(t *testing.T, native string) string {
	t.Helper()
	// native is <cache>/node_modules/@openai/codex-linux-x64/vendor/<triple>/bin/codex.
	i := strings.LastIndex(native, string(filepath.Separator)+"node_modules"+string(filepath.Separator))
	if i < 0 {
		t.Skipf("the native Codex %s is not in an npm tree", native)
	}
	script := filepath.Join(native[:i], "node_modules", "@openai", "codex", "bin", "codex.js")
	if _, err := os.Stat(script); err != nil {
		t.Skipf("no npm launcher next to the native Codex: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "npm-global", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "codex")
	if err := os.Symlink(script, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// Launcher shapes with hooks and the pane: `env VAR=… <npm global>/bin/codex`
// (node running the package's codex.js, which starts the native binary):
// the pane is read (an approval shows, Esc on it), /quit is exited. kill -9
// while waiting is TestCodexTUIKilledMidTurn's class: Codex's background
// server keeps the turn, and its approval, after the TUI is gone.
func TestCodexConformLauncher(t *testing.T) {
	s := startCodex(t, codexOpts{launch: func(o *driver.Options) {
		o.Codex = npmGlobalCodex(t, o.Codex)
		o.Wrap = []string{"env", "MEW_E2E_LAUNCHER=env"}
	}})
	s.freshPaneIdle()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	// Any row will do: the run has one Codex, and its row before the
	// first turn is keyed by the pane, not yet by the rollout's session id.
	if s.r.PaneReads() == 0 {
		t.Errorf("Mew never read the pane of Codex started as %s", s.r.Opts.Codex)
	}
	a, err := s.r.Answer(codexDialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("declined with Esc → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	s.turnOver(a.Pressed, "turn_aborted", nil)
	s.submit("/quit")
	s.expect("/quit → exited", s.paneDead(gone), exit, exitedOrGone)
}

// askFeature turns on request_user_input in Codex's default mode, in
// config.toml, not by -c: Codex's background server starts from it, and
// one started without the feature asks to restart.
func askFeature(o *driver.Options) {
	prev := o.Setup
	o.Setup = func(r *driver.Run) error {
		if prev != nil {
			if err := prev(r); err != nil {
				return err
			}
		}
		f, err := os.OpenFile(filepath.Join(r.CodexHome, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString("\n[features]\ndefault_mode_request_user_input = true\n")
		return err
	}
}

// codexQuestion asks request_user_input: waiting(question) with the
// choices the question gives, then done once answered (Enter: React).
func (s *scen) codexQuestion(mode string, goal time.Duration) session.Shown {
	s.t.Helper()
	sent := s.codexPrompt(fakeresponses.Prompt(fakeresponses.Ask))
	shown, err := s.r.WaitScreen(sent, codexQuestion, turn)
	if err != nil {
		if strings.Contains(s.r.Screen(), fakeresponses.NoAskTool) {
			s.t.Fatalf("Codex %s did not offer request_user_input with the feature on", driver.CodexVersion)
		}
		s.t.Fatal(err)
	}
	res := s.expect(mode+"question shown → waiting(question)", shown.At, goal, waitingFor(session.ReasonQuestion))
	if mode != "screen: " {
		// The choices come with the question's PreToolUse, which a
		// loaded machine may store after the screen showed the dialog.
		// From the screen alone there are none: its options draw no key.
		res = s.expect(mode+"question's choices from its PreToolUse", shown.At, goal, func(sh session.Shown, listed bool) bool {
			return waitingFor(session.ReasonQuestion)(sh, listed) && len(sh.Choices) > 0
		})
	}
	a, err := s.r.Answer(codexQuestion, shown.At, "Enter")
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect(mode+"answered → not waiting", a.Gone, goal, listedAndNot(session.Waiting))
	s.expect(mode+"question's turn ended → done", s.turnOver(a.Pressed, "task_complete", nil), goal, stateIs(session.Done))
	return res.Shown
}

// Codex's structured question (request_user_input), offered in its default
// mode by the feature default_mode_request_user_input: waiting(question)
// with the choices its PreToolUse carries, then done once answered.
func TestCodexConformQuestion(t *testing.T) {
	s := startCodex(t, codexOpts{launch: askFeature})
	shown := s.codexQuestion("", fast)
	// The choices are the question's options, from its PreToolUse
	// (tool_input.questions[0].options[].label).
	var labels []string
	for _, c := range shown.Choices {
		labels = append(labels, fmt.Sprintf("%d %s", c.N, c.Label))
	}
	if got := strings.Join(labels, ", "); got != "1 React, 2 Vue" {
		t.Errorf("choices while the question shows: %q, want \"1 React, 2 Vue\" (%+v)", got, shown)
	}
	if shown.Tool != "request_user_input" || shown.ToolDetail != "Which framework?" {
		t.Errorf("the question's tool and text: %q %q", shown.Tool, shown.ToolDetail)
	}
	// A reply quoting the approval dialog, with the pane read.
	sent := s.codexPrompt(fakeresponses.Prompt(fakeresponses.Quote))
	end := s.turnOver(sent, "task_complete", nil)
	s.expect("a reply quoting the dialog → done", end, fast, stateIs(session.Done))
	s.never("a reply quoting the dialog: never waiting", sent, end.Add(settleAfter), shows(session.Waiting))
}

func laterTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
