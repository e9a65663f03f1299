package e2e

// Claude Code's cells of the conformance matrix (issue 35) that no older
// scenario walks: each session walks several classes in a row, in one mode.

import (
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// apiError is how Claude Code 2.1.328 draws a request the API refused.
var apiError = regexp.MustCompile(`API Error: 400`)

// freshPaneIdle: a pane before any turn is idle in both views (WaitMew judges
// the one-shot and the watcher), and never done.
func (s *scen) freshPaneIdle() {
	s.t.Helper()
	ready := time.Now()
	s.expect("fresh pane before any turn → idle", ready, fast, stateIs(session.Idle))
	s.never("fresh pane: never done", s.r.Started, ready, shows(session.Done))
}

// turnDone is the CLI's moment the turn of prompt (typed at sent) ended:
// the earlier of its registry going idle and its screen drawing the
// finished-turn line below the prompt. A turn of a few milliseconds may
// leave the registry file as it was (idle before, idle after).
func (s *scen) turnDone(sent time.Time, prompt string) time.Time {
	s.t.Helper()
	line := regexp.MustCompile(`(?s)❯[ \x{a0}]` + regexp.QuoteMeta(prompt) + `\n.*\n[✻✽✶✳✢·*●] [A-Z]\p{Ll}+ for \d+`)
	snap, err := s.r.WaitScreen(sent, line, turn)
	if err != nil {
		s.t.Fatalf("the turn of %q never ended on screen: %v", prompt, err)
	}
	ref := snap.At
	if c, err := s.r.WaitRegistry(sent, driver.Status("idle"), time.Millisecond); err == nil && c.At.Before(ref) {
		ref = c.At
	}
	return ref
}

// apiErrorFailed: a request the API refuses (HTTP 400, not retried) ends
// the turn failed, and no sample from the turn's start shows it done.
func (s *scen) apiErrorFailed(prefix string, goal time.Duration) {
	s.t.Helper()
	sent := s.submit(fakeapi.Prompt(fakeapi.Fail))
	busy, err := s.r.WaitRegistry(sent, driver.Status("busy"), turn)
	if err != nil {
		s.t.Fatal(err)
	}
	from := s.sawStart(busy.At)
	failed := s.cliChange(sent, apiError, "idle")
	s.expect(prefix+"API error → failed", failed.ref, goal, stateIs(session.Failed))
	s.never(prefix+"API error: never done on the way", from, failed.ref.Add(settleAfter), shows(session.Done))
}

// sawStart is the end of the first sample after a turn's start (at) that
// no longer shows the turn before as it ended: Mew saw the new turn (or
// already its failure). The samples before may show the last turn's done,
// which is latency, not a done on the way.
func (s *scen) sawStart(at time.Time) time.Time {
	s.t.Helper()
	res := s.r.WaitMew(at, fast, grace, func(sh session.Shown, listed bool) bool {
		return listed && (sh.State == session.Working || sh.State == session.Failed)
	})
	if !res.Seen {
		s.t.Errorf("Mew never showed the turn that started at %s", s.r.TL.Rel(at))
		return at
	}
	return res.Sample.End
}

// freshNotDone: with hooks only, Codex reports nothing before the first
// prompt (its SessionStart comes with it) and the suite's process scan is
// off: the session is not listed, or idle, and never done.
func (s *scen) freshNotDone() {
	s.t.Helper()
	ready := time.Now()
	s.r.WaitSampleAfter(ready, 5*time.Second)
	s.never("fresh pane: never done nor busy", s.r.Started, ready, func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Idle && !(sh.State == session.Waiting && sh.Source == "codex:hooks-review")
	})
}

// claudeWalk walks the main classes in one session: a fresh pane, a turn,
// a permission allowed, one denied with Esc and the next turn, a reply
// quoting the dialog, a question, an API error, Esc while a reply streams,
// /exit.
func claudeWalk(t *testing.T, s *scen, mode string) {
	// The goals: 0.5 s with hooks, 1 s from the screen alone (issue 35).
	goal := fast
	if mode == "screen" {
		goal = time.Second
	}
	s.freshPaneIdle()

	sent := s.submit(fakeapi.Prompt(fakeapi.Text))
	s.expect(mode+": turn ended → done", s.turnDone(sent, fakeapi.Prompt(fakeapi.Text)), goal, stateIs(session.Done))

	sent = s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect(mode+": prompt shown → waiting(permission)", shown.ref, goal, waitingFor(session.ReasonPermission))
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect(mode+": allowed → not waiting", answered, goal, listedAndNot(session.Waiting))
	s.expect(mode+": allowed turn ended → done", s.turnEnd(answered), goal, stateIs(session.Done))

	sent = s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown = s.cliChange(sent, permissionPrompt, "waiting")
	s.expect(mode+": prompt shown again → waiting(permission)", shown.ref, goal, waitingFor(session.ReasonPermission))
	esc := s.answer(permissionPrompt, shown.screen, "Escape")
	s.expect(mode+": denied with Esc → not waiting", esc, goal, listedAndNot(session.Waiting))
	sent = s.submit("next " + fakeapi.Prompt(fakeapi.Text))
	s.expect(mode+": next turn after the deny → done", s.turnDone(sent, "next "+fakeapi.Prompt(fakeapi.Text)), goal, stateIs(session.Done))

	sent = s.submit(fakeapi.Prompt(fakeapi.Quote))
	end := s.turnDone(sent, fakeapi.Prompt(fakeapi.Quote))
	s.expect(mode+": a reply quoting the dialog → done", end, goal, stateIs(session.Done))
	s.never(mode+": a reply quoting the dialog: never waiting", sent, end.Add(settleAfter), shows(session.Waiting))

	sent = s.submit(fakeapi.Prompt(fakeapi.Ask))
	shown = s.cliChange(sent, questionDialog, "waiting")
	s.expect(mode+": question shown → waiting(question)", shown.ref, goal, waitingFor(session.ReasonQuestion))
	answered = s.answer(questionDialog, shown.screen, "Enter")
	s.expect(mode+": question answered → not waiting", answered, goal, listedAndNot(session.Waiting))
	s.expect(mode+": question's turn ended → done", s.turnEnd(answered), goal, stateIs(session.Done))

	s.apiErrorFailed(mode+": ", goal)

	sent = s.submit(fakeapi.Prompt(fakeapi.Slow))
	if _, err := s.r.WaitScreen(sent, slowStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc = s.press("Escape")
	stopped := s.cliChange(esc, interrupted, "idle")
	s.expect(mode+": Esc while streaming → idle", stopped.ref, goal, stateIs(session.Idle))
	s.never(mode+": Esc while streaming: never done", esc, stopped.ref.Add(settleAfter), shows(session.Done))

	exitAt := s.submit("/exit")
	ref := exitAt
	if c, err := s.r.WaitRegistry(exitAt, driver.Gone, 5*time.Second); err == nil {
		ref = c.At
	}
	s.expect(mode+": /exit → exited or gone", ref, exit, exitedOrGone)
}

// Screen only: no `mew install`, the pane read (with Claude Code's own
// session registry, which it always writes). Replies come after a second,
// as real ones do; the short turns that leave the registry idle throughout
// are TestNoInstallShortTurnsDone's.
func TestClaudeConformScreen(t *testing.T) {
	claudeWalk(t, start(t, opts{noInstall: true, think: time.Second}), "screen")
}

// Hooks only: installed, the pane not read (Mew looks at a tmux server
// that does not run).
func TestClaudeConformHooks(t *testing.T) {
	claudeWalk(t, start(t, opts{launch: func(o *driver.Options) { hideTmux(o) }}), "hooks")
}

// hideTmux has Mew sampled with a tmux socket where no server runs.
func hideTmux(o *driver.Options) {
	o.Setup = func(r *driver.Run) error {
		r.MewEnv = append(append([]string(nil), r.Env...), "MEW_TMUX_SOCKET="+filepath.Join(r.Home, "no-tmux.sock"))
		return nil
	}
}

// npmGlobalClaude lays out what `npm install -g @anthropic-ai/claude-code`
// makes (<prefix>/bin/claude → ../lib/node_modules/@anthropic-ai/
// claude-code/bin/claude.exe, the native binary its postinstall put there)
// and returns <prefix>/bin/claude.
func npmGlobalClaude(t *testing.T, native string) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "npm-global")
	pkgBin := filepath.Join(prefix, "lib", "node_modules", "@anthropic-ai", "claude-code", "bin")
	bin := filepath.Join(prefix, "bin")
	for _, d := range []string{pkgBin, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(pkgBin, "claude.exe")
	if err := os.Link(native, exe); err != nil {
		t.Skipf("cannot hard-link the native binary into the npm layout: %v", err)
	}
	link := filepath.Join(bin, "claude")
	if err := os.Symlink("../lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", link); err != nil {
		t.Fatal(err)
	}
	return link
}

// Launcher shapes with hooks and the pane: `env VAR=… <npm global>/bin/claude`
// (the link npm makes, to claude.exe), walked through a fresh pane, an API
// error and kill -9 on a permission prompt. The pane must be read.
func TestClaudeConformLauncher(t *testing.T) {
	s := start(t, opts{launch: func(o *driver.Options) {
		o.Claude = npmGlobalClaude(t, o.Claude)
		o.Wrap = []string{"env", "MEW_E2E_LAUNCHER=env"}
	}})
	s.freshPaneIdle()

	s.apiErrorFailed("", fast)

	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	if s.r.PaneReads() == 0 {
		t.Errorf("Mew never read the pane of Claude Code started as %s", s.r.Opts.Claude)
	}
	pid := s.r.CLIPid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	s.r.TL.Addf(killed, "key", "kill -9 %d", pid)
	s.expect("kill -9 while waiting → exited", killed, exit, exitedOrGone)
}
