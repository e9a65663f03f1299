package e2e

// The real Codex CLI (driver.CodexVersion) against a scripted Responses API
// (package fakeresponses): each scenario in its own CODEX_HOME, with Mew's
// hooks installed by `mew install --agent codex` and trusted the way a
// person would (answering Codex's "Hooks need review" dialog), or not.

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

var (
	codexDialog    = regexp.MustCompile(`Would you like to run the following command\?`)
	codexTurnEnd   = regexp.MustCompile(`Worked for `)
	codexStreaming = regexp.MustCompile(`Thinking it over`)
)

type codexSetup struct {
	codex, packages, mew string
}

func needCodex(t *testing.T) codexSetup {
	t.Helper()
	b := needCLIBinaries(t, "Codex CLI", driver.CodexVersion, driver.FindCodex, driver.ErrNoCodex, driver.CodexPackages)
	return codexSetup{codex: b.program, packages: b.extra, mew: b.mew}
}

type codexOpts struct {
	untrusted bool // answer Codex's hook review with "Continue without trusting"
	noInstall bool // no `mew install` (no hooks at all)
	run       bool // under `mew run --`
	// autoReview turns Codex's auto-review on, with the stand-in as the
	// reviewer model; askProfile starts Codex with a profile that hands
	// approvals back to the person (see codex_review_test.go).
	autoReview, askProfile bool
	observe                []string // hook events the driver logs with a hook of its own
	// args follow Codex's own --cd; launch changes the driver's options
	// last (a launcher shape, a hidden pane).
	args   []string
	launch func(*driver.Options)
}

// startCodex runs Codex for one scenario, in parallel with the others.
func startCodex(t *testing.T, o codexOpts) *scen {
	s, _ := startCodexAPI(t, o)
	return s
}

// startCodexAPI is startCodex that also returns the stand-in API.
func startCodexAPI(t *testing.T, o codexOpts) (*scen, *fakeresponses.Server) {
	t.Parallel()
	s := needCodex(t)
	api, err := fakeresponses.Start(fakeresponses.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	do := driver.Options{
		Agent: driver.AgentCodex, Codex: s.codex, CodexPackages: s.packages,
		APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew, Install: !o.noInstall, Wrap: runWrap(o.run, s.mew),
		Setup: autoReviewSetup(o), CodexArgs: append(askProfileArgs(o), o.args...), ObserveHooks: o.observe,
	}
	if o.launch != nil {
		o.launch(&do)
	}
	r, err := driver.Launch(do)
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	sc := &scen{t: t, r: r}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		dumpScreens(t, r)
		t.Logf("rows per agent: %s", r.RowCounts())
		if err := r.CheckRows(); err != nil {
			t.Error(err)
		}
		d := driver.SampleDurations(r.Samples())
		t.Logf("mew status --json: %d samples, median %v, p95 %v, max %v", d.N, d.Median.Round(time.Millisecond), d.P95.Round(time.Millisecond), d.Max.Round(time.Millisecond))
		recordDurations(t.Name(), d)
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			for _, l := range api.Log() {
				r.TL.Addf(l.At, "api", "%s %s %d %s → %s", l.Method, l.Path, l.Status, l.Why, l.Reply)
			}
			t.Logf("timeline (Mew left, Codex right; seconds since the CLI started):\n%s", r.TL.String())
		}
	})
	if !o.noInstall {
		if err := r.AnswerHookReview(!o.untrusted, ready); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	return sc, api
}

// rolloutAfter waits for the CLI to write event to its rollout after since.
func (s *scen) rolloutAfter(since time.Time, event string) driver.RolloutEvent {
	s.t.Helper()
	e, err := s.r.WaitRollout(since, func(e driver.RolloutEvent) bool { return e.Event == event }, turn)
	if err != nil {
		s.t.Fatalf("%v; screen:\n%s", err, driver.Excerpt(s.r.Screen(), 12))
	}
	return e
}

// turnOver is the CLI's own moment a turn ended: the earlier of its
// rollout's task_complete/turn_aborted and its screen showing it.
func (s *scen) turnOver(since time.Time, event string, screen *regexp.Regexp) time.Time {
	s.t.Helper()
	ref := s.rolloutAfter(since, event).At
	if screen != nil {
		if snap, err := s.r.WaitScreen(since, screen, 2*time.Second); err == nil && snap.At.Before(ref) {
			ref = snap.At
		}
	}
	return ref
}

// paneDead waits for the TUI to exit and returns when it was seen gone.
func (s *scen) paneDead(timeout time.Duration) time.Time {
	s.t.Helper()
	if at, ok := s.paneDeadBy(time.Now().Add(timeout)); ok {
		return at
	}
	s.t.Fatalf("the TUI did not exit within %v", timeout)
	return time.Time{}
}

// paneDeadBy polls the pane (tmux has no event for it) until it is dead or
// deadline passes.
func (s *scen) paneDeadBy(deadline time.Time) (time.Time, bool) {
	for time.Now().Before(deadline) {
		if st, err := s.r.Tmux.Pane(); err == nil && st.Dead {
			return time.Now(), true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Time{}, false
}

func TestCodexPlainTurn(t *testing.T) {
	s := startCodex(t, codexOpts{})
	// Codex spins its title at start-up and after its hook review: no
	// turn, never done in either view (issue 35: the one-shot showed done
	// for 1–2.5 s).
	s.never("a fresh pane before any turn → never done", s.r.Started, time.Now(), shows(session.Done))
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	end := s.turnOver(sent, "task_complete", codexTurnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, session.AgentCodex, "its hooks, which Codex trusts,")
	// The trust the person gave is the one `mew doctor` computes.
	doctor := exec.Command(s.r.Opts.Mew, "doctor", "--agent", "codex")
	doctor.Env = s.r.Env
	out, err := doctor.CombinedOutput()
	if !strings.Contains(string(out), "Codex trusts Mew's hooks") {
		t.Errorf("mew doctor after trusting: %v\n%s", err, out)
	}
}

func TestCodexApproval(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approved → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnOver(a.Pressed, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
}

func TestCodexDeclineWithEsc(t *testing.T) { startCodex(t, codexOpts{}).codexDecline() }

// codexDecline asks for the approval and declines it with Esc: waiting,
// then idle. It returns when Esc was pressed.
func (s *scen) codexDecline() time.Time {
	s.t.Helper()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Escape")
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("declined with Esc → idle", a.Gone, fast, stateIs(session.Idle))
	return a.Pressed
}

func TestCodexEscWhileWorking(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Slow))
	s.expect("turn started → working", s.rolloutAfter(sent, "task_started").At, fast, stateIs(session.Working))
	if _, err := s.r.WaitScreen(sent, codexStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	s.expect("Esc → idle", s.turnOver(esc, "turn_aborted", nil), fast, stateIs(session.Idle))
}

func TestCodexHTTP500(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Error))
	end := s.rolloutAfter(sent, "task_complete")
	if !end.Error {
		t.Fatalf("the turn ended without an error: %+v", end)
	}
	s.expect("HTTP 500 → failed", end.At, fast, stateIs(session.Failed))
}

func TestCodexQuitWhileIdle(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	s.expect("turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	s.submit("/quit")
	s.expect("/quit → exited", s.paneDead(gone), exit, exitedOrGone)
}

// The TUI killed mid-turn: Codex's daemon runs the turn on; the session is
// not exited until the turn ends, and exited then.
func TestCodexTUIKilledMidTurn(t *testing.T) {
	s, api := startCodexAPI(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Long))
	started := s.rolloutAfter(sent, "task_started")
	s.expect("turn started → working", started.At, fast, stateIs(session.Working))
	// Mid-turn: the daemon waits on the model (a TUI closed in the very
	// first milliseconds of a turn leaves it stalled: measured, Codex
	// 0.169.0 never asks the model then).
	deadline := time.Now().Add(turn)
	for !slices.ContainsFunc(api.Log(), func(l fakeresponses.Logged) bool { return l.Why == fakeresponses.Long+"/0" }) {
		if time.Now().After(deadline) {
			t.Fatal("the model was never asked")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pane, err := s.r.Tmux.Pane()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pane.Pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	s.r.TL.Addf(killed, "key", "closed the TUI's terminal (SIGHUP to pid %d)", pane.Pid)
	end := s.rolloutAfter(killed, "task_complete")
	t.Logf("the turn ended %v after the TUI was killed", end.At.Sub(killed).Round(time.Millisecond))
	// Codex runs its Stop hook just before it writes task_complete: Mew
	// may know the turn ended (and the TUI is gone: exited) a moment before
	// the rollout says so (8 ms in a run at load 40). The window ends a
	// little before the rollout's line.
	const stopHookLead = 250 * time.Millisecond
	bad := s.r.MewDuring(killed, end.At.Add(-stopHookLead), func(sh session.Shown, listed bool) bool { return !listed || sh.State == session.Exited })
	n := s.r.SamplesIn(killed, end.At.Add(-stopHookLead))
	for _, b := range bad {
		sh, listed := b.Find(s.r.SessionID())
		t.Errorf("at %s (the turn still running) Mew showed %s (listed %v)", s.r.TL.Rel(b.End), driver.ShownString(sh), listed)
	}
	if n < 5 {
		t.Errorf("only %d samples while the turn ran on: the check proves nothing", n)
	}
	recordWindow(t.Name(), "never exited while the daemon runs the turn", len(bad) == 0, n)
	s.expect("turn over, TUI gone → exited", end.At, exit, stateIs(session.Exited))
}

// Without the hooks trusted, the rollout and the processes alone get done,
// failed and exited right (the wait needs the screen: see below).
func TestCodexUntrusted(t *testing.T) {
	s := startCodex(t, codexOpts{untrusted: true})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	res := s.expect("turn ended → done, rollout only", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	if res.Shown.HooksSeen {
		t.Errorf("Mew's hooks ran although Codex was told not to trust them")
	}
	sent = s.submit(fakeresponses.Prompt(fakeresponses.Error))
	s.expect("HTTP 500 → failed, rollout only", s.rolloutAfter(sent, "task_complete").At, fast, stateIs(session.Failed))
	s.submit("/quit")
	s.expect("/quit → exited, process only", s.paneDead(gone), exit, exitedOrGone)
}

// Without the hooks trusted, only the screen sees Codex's approval dialog.
func TestCodexUntrustedApprovalFromScreen(t *testing.T) {
	s := startCodex(t, codexOpts{untrusted: true})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approval shown → waiting(permission), screen only", shown.At, fast, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(codexDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approved → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
}
