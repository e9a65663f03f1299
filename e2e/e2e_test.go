// Package e2e drives the real Claude Code CLI (the pinned release, see
// driver.Version) against a scripted Messages API and checks that Mew's
// `mew status --json` follows what the CLI itself shows — its screen and its
// own session registry — within the product's latency goals.
//
// Run with `make e2e` (which sets MEW_E2E=1); the tests skip with a reason
// when tmux or the npm package is missing.
package e2e

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// The product's goals, as the issue states them.
const (
	fast = 500 * time.Millisecond // waiting / not waiting / done / not working
	exit = 2 * time.Second        // exited or gone after /exit
	// grace: how long past a goal a change is still waited for, so a miss
	// says by how much.
	grace = 3 * time.Second
	// ready: a loaded machine starts the CLI slowly.
	ready = 45 * time.Second
	// turn: a scripted turn takes well under this.
	turn = 30 * time.Second
	// gone: a CLI told to quit is gone well within this, even on a loaded
	// machine (a bound, not a goal: the exit's latency is judged on Mew).
	gone = 60 * time.Second
)

var (
	permissionPrompt = regexp.MustCompile(`Do you want to proceed\?`)
	questionDialog   = regexp.MustCompile(`(?s)Which framework\?.*1\. React`)
	planDialog       = regexp.MustCompile(`Exit plan mode\?`)
	slowStreaming    = regexp.MustCompile(`↓ [0-9]+ tokens`) // the CLI counts streamed tokens; the text itself shows at the end
	agentLaunched    = regexp.MustCompile(`Backgrounded agent`)
	interrupted      = regexp.MustCompile(`Interrupted`)
)

type setup struct {
	claude, mew string
}

// need returns the binaries, or skips the test with the reason.
func need(t *testing.T) setup {
	t.Helper()
	b := needCLIBinaries(t, "Claude Code CLI", driver.ClaudeVersion, driver.FindClaude, driver.ErrNoClaude, nil)
	return setup{claude: b.program, mew: b.mew}
}

// scen is one scenario's run and its findings.
type scen struct {
	t   *testing.T
	r   *driver.Run
	api *fakeapi.Server
}

type opts struct {
	noInstall bool
	args      []string
	// remote runs the CLI on a "remote" (an sshd on 127.0.0.1 whose
	// sessions get the run's home) and samples another machine's Mew,
	// which follows it with `mew remote add` (see remote_test.go).
	remote bool
	// run wraps the CLI in `mew run --`; watch samples Mew through one
	// `mew status --watch` (see driver.Options).
	run, watch bool
	// observe adds hook events the driver logs (Notification always).
	observe []string
	// launch changes the driver's options last (a launcher shape, a
	// hidden pane).
	launch func(*driver.Options)
	// think delays the stand-in's text replies (fakeapi.Timing.Think).
	think time.Duration
}

// start runs the CLI for one scenario, in parallel with the others.
func start(t *testing.T, o opts) *scen {
	t.Parallel()
	s := need(t)
	timing := fakeapi.DefaultTiming
	timing.Think = o.think
	api, err := fakeapi.Start(timing)
	if err != nil {
		t.Fatal(err)
	}
	args := o.args
	if len(args) == 0 {
		args = []string{"--permission-mode", "default"}
	}
	var observe []string
	if !o.noInstall {
		// The CLI's notifications do not show on its screen or in its
		// registry: a hook of the driver's own, next to Mew's, reports them.
		observe = append([]string{"Notification"}, o.observe...)
	}
	do := driver.Options{
		Claude: s.claude, APIURL: api.URL, Dir: t.TempDir(), Args: args,
		Mew: s.mew, Install: !o.noInstall, ObserveHooks: observe,
		Setup: remoteSetup(t, o.remote, s.mew), Wrap: runWrap(o.run, s.mew), MewWatch: o.watch,
	}
	if o.launch != nil {
		o.launch(&do)
	}
	r, err := driver.Launch(do)
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	sc := &scen{t: t, r: r, api: api}
	t.Cleanup(func() {
		r.Close()
		api.Close()
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
			t.Logf("timeline (Mew left, Claude Code right; seconds since the CLI started):\n%s", r.TL.String())
		}
	})
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	return sc
}

// runWrap is the command line prefix that runs a CLI under `mew run`.
func runWrap(run bool, mew string) []string {
	if !run {
		return nil
	}
	return []string{mew, "run", "--"}
}

// expect checks that Mew reaches a state within goal of ref (the CLI's own
// moment) and records the latency for the summary.
func (s *scen) expect(check string, ref time.Time, goal time.Duration, want func(session.Shown, bool) bool) driver.MewResult {
	s.t.Helper()
	res := s.r.WaitMew(ref, goal, grace, want)
	got := "no sample"
	if !res.Sample.End.IsZero() {
		if _, ok := res.Sample.Find(s.r.SessionID()); ok {
			got = driver.ShownString(res.Shown)
		} else {
			got = "not listed"
		}
	}
	record(s.t.Name(), check, res, goal)
	lat := fmt.Sprintf("%v–%v", res.Lo.Round(time.Millisecond), res.Hi.Round(time.Millisecond))
	switch {
	case !res.Seen:
		s.t.Errorf("%s: Mew never got there (goal %v, ceiling %v after %s, waited %v more); last seen: %s", check, goal, driver.Ceiling(goal), s.r.TL.Rel(ref), grace, got)
	case !res.OK:
		s.t.Errorf("%s: Mew was past the ceiling: %s after the CLI's change at %s (goal %v, ceiling %v); then: %s", check, lat, s.r.TL.Rel(ref), goal, driver.Ceiling(goal), got)
	case !res.OnGoal:
		// A latency goal is judged over runs, in the summary.
		s.t.Logf("%s: late: %s after the CLI (goal %v, within the ceiling %v): %s", check, lat, goal, driver.Ceiling(goal), got)
	case !res.Certain:
		s.t.Logf("%s: %s after the CLI (goal %v: within it only if Mew changed early in a slow sample): %s", check, lat, goal, got)
	default:
		s.t.Logf("%s: %s after the CLI: %s", check, lat, got)
	}
	return res
}

// hooksReported waits for both kinds of samples to show the session with
// its hooks (plugin, extension) reporting, as agent, after ref: the first sample in a state can come from another source (Codex's
// rollout, a log) a moment before the hook's own report is stored.
func (s *scen) hooksReported(ref time.Time, agent, what string) {
	s.t.Helper()
	res := s.r.WaitMew(ref, fast, grace, func(sh session.Shown, listed bool) bool {
		return listed && sh.HooksSeen && sh.Agent == agent
	})
	if !res.Seen {
		s.t.Errorf("Mew never showed %s reporting the session (agent %q) after %s: %+v", what, agent, s.r.TL.Rel(ref), res.Shown)
	}
}

// change is when the CLI showed something. The reference for Mew is what
// can be observed of the CLI — its screen and its registry file — not the
// registry's statusUpdatedAt: on a loaded machine the CLI writes the file
// up to half a second after that time, and nobody can see it before.
type change struct {
	ref    time.Time // the earlier of the screen and the registry file showing it
	screen time.Time // the first capture that showed it
}

// cliChange waits for the CLI to show screen (and its registry to report
// status, when given) after since.
func (s *scen) cliChange(since time.Time, screen *regexp.Regexp, status string) change {
	s.t.Helper()
	snap, err := s.r.WaitScreen(since, screen, turn)
	if err != nil {
		s.t.Fatal(err)
	}
	c := change{ref: snap.At, screen: snap.At}
	if status != "" {
		reg, err := s.r.WaitRegistry(since, driver.Status(status), turn)
		if err != nil {
			s.t.Fatalf("screen shows %q but %v", screen, err)
		}
		if reg.At.Before(c.ref) {
			c.ref = reg.At
		}
	}
	return c
}

// turnEnd waits for the CLI to report idle after since and returns when.
func (s *scen) turnEnd(since time.Time) time.Time {
	s.t.Helper()
	c, err := s.r.WaitRegistry(since, driver.Status("idle"), turn)
	if err != nil {
		s.t.Fatalf("the turn never ended: %v; screen:\n%s", err, driver.Excerpt(s.r.Screen(), 12))
	}
	return c.At
}

func (s *scen) press(keys ...string) time.Time {
	s.t.Helper()
	at, err := s.r.Keys(keys...)
	if err != nil {
		s.t.Fatal(err)
	}
	return at
}

// escAgain is OpenCode's (and Kilo's) hint after a first Esc on a running
// turn: a second one interrupts it.
var escAgain = regexp.MustCompile(`esc again to interrupt`)

// interruptTwice stops a running turn with Esc, Esc (OpenCode, Kilo,
// Copilot CLI) and returns when the screen showed stopped. On a loaded
// machine the TUI takes the first key late, and a second typed a fixed
// moment after it was lost, the turn left running: the second Esc waits
// for hint (at most 3 s; nil: 200 ms after the first), and both go again,
// at most three times, while the turn runs on.
func (s *scen) interruptTwice(stopped, hint *regexp.Regexp) driver.Snap {
	s.t.Helper()
	var snap driver.Snap
	var err error
	for try := 0; try < 3; try++ {
		esc := s.press("Escape")
		if hint == nil {
			// Longer each try: Copilot CLI under load took none of three
			// pairs 200 ms apart (the conformance walk).
			time.Sleep(time.Duration(try+1) * 200 * time.Millisecond)
		} else if _, err := s.r.WaitScreen(esc, hint, 3*time.Second); err != nil {
			s.t.Logf("no %q 3 s after Esc: the second one anyway", hint)
		}
		s.press("Escape")
		if snap, err = s.r.WaitScreen(esc, stopped, 8*time.Second); err == nil {
			return snap
		}
		s.t.Logf("the turn did not stop after Esc Esc: again")
	}
	s.t.Fatalf("Esc Esc never stopped the turn: %v", err)
	return snap
}

// answer presses keys on the dialog shown at shownAt and returns the CLI's
// moment of the answer: the earlier of the dialog leaving its screen and
// its registry leaving "waiting". On a loaded machine the CLI itself takes
// a while to act on a key, and Mew is judged against the CLI.
func (s *scen) answer(dialog *regexp.Regexp, shownAt time.Time, keys ...string) time.Time {
	s.t.Helper()
	a, err := s.r.Answer(dialog, shownAt, keys...)
	if err != nil {
		s.t.Fatal(err)
	}
	ref := a.Gone
	reg, err := s.r.WaitRegistry(a.Pressed, func(c driver.RegChange) bool {
		return c.Doc != nil && c.Doc.Status != "" && c.Doc.Status != "waiting"
	}, 5*time.Second)
	if a.Presses > 1 {
		s.t.Logf("the CLI ignored %d presses of %s on its dialog", a.Presses-1, strings.Join(keys, " "))
	}
	if err != nil {
		s.t.Logf("after the press of %s: dialog gone %v; the registry never left waiting (%v)", strings.Join(keys, " "),
			a.Gone.Sub(a.Pressed).Round(time.Millisecond), err)
		return ref
	}
	if reg.At.Before(ref) {
		ref = reg.At
	}
	s.t.Logf("after the press of %s: dialog gone %v, registry file %v (its statusUpdatedAt %v)", strings.Join(keys, " "),
		a.Gone.Sub(a.Pressed).Round(time.Millisecond), reg.At.Sub(a.Pressed).Round(time.Millisecond),
		reg.StatusAt().Sub(a.Pressed).Round(time.Millisecond))
	return ref
}

func (s *scen) submit(prompt string) time.Time {
	s.t.Helper()
	at, err := s.r.Submit(prompt)
	if err != nil {
		s.t.Fatal(err)
	}
	return at
}

// holdsThroughNotification leaves the dialog up until the CLI sends its
// permission_prompt notification (about 6 s after a dialog appears, for
// every kind of dialog) and checks that Mew keeps the reason it had: the
// notification says "permission" even for a question or a plan.
func (s *scen) holdsThroughNotification(shown change, reason session.Reason) {
	s.t.Helper()
	n, err := s.r.WaitHook(shown.screen, func(h driver.HookSeen) bool {
		return h.Event == "Notification" && h.Kind == "permission_prompt"
	}, turn)
	if err != nil {
		s.t.Errorf("the CLI sent no permission_prompt notification within %v of the dialog (2.1.328 does after ~6 s): %v", turn, err)
		return
	}
	s.t.Logf("permission_prompt notification %v after the dialog appeared", n.At.Sub(shown.screen).Round(time.Millisecond))
	until := n.At.Add(fast + 500*time.Millisecond)
	s.r.WaitSampleAfter(until, 3*time.Second)
	bad := s.r.MewDuring(n.At, until, func(sh session.Shown, listed bool) bool { return !waitingFor(reason)(sh, listed) })
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		s.t.Errorf("after the CLI's permission_prompt notification (%s) Mew showed %s, want waiting(%s)", s.r.TL.Rel(n.At), driver.ShownString(sh), reason)
	}
	recordWindow(s.t.Name(), fmt.Sprintf("keeps waiting(%s) through the permission_prompt notification", reason), len(bad) == 0, s.r.SamplesIn(n.At, until))
}

// State predicates.
func waitingFor(reason session.Reason) func(session.Shown, bool) bool {
	return func(sh session.Shown, listed bool) bool {
		return listed && sh.State == session.Waiting && sh.Reason == reason
	}
}

func stateIs(st session.State) func(session.Shown, bool) bool {
	return func(sh session.Shown, listed bool) bool { return listed && sh.State == st }
}

func listedAndNot(st session.State) func(session.Shown, bool) bool {
	return func(sh session.Shown, listed bool) bool { return listed && sh.State != st }
}

func exitedOrGone(sh session.Shown, listed bool) bool { return !listed || sh.State == session.Exited }

// Permission prompt in default mode: waiting(permission) while it shows,
// not waiting once answered, done when the turn ends.
func TestPermissionPrompt(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	s.holdsThroughNotification(shown, session.ReasonPermission)
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("prompt answered → not waiting", answered, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
}

// AskUserQuestion: waiting(question), then done after the answer.
func TestAskUserQuestion(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Ask))
	shown := s.cliChange(sent, questionDialog, "waiting")
	s.expect("question shown → waiting(question)", shown.ref, fast, waitingFor(session.ReasonQuestion))
	s.holdsThroughNotification(shown, session.ReasonQuestion)
	answered := s.answer(questionDialog, shown.screen, "Enter")
	s.expect("question answered → not waiting", answered, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
}

// ExitPlanMode in plan mode: waiting(plan).
func TestExitPlanMode(t *testing.T) {
	s := start(t, opts{args: []string{"--permission-mode", "plan"}})
	sent := s.submit(fakeapi.Prompt(fakeapi.Plan))
	shown := s.cliChange(sent, planDialog, "waiting")
	s.expect("plan shown → waiting(plan)", shown.ref, fast, waitingFor(session.ReasonPlan))
	s.holdsThroughNotification(shown, session.ReasonPlan)
	answered := s.answer(planDialog, shown.screen, "Enter")
	s.expect("plan approved → not waiting", answered, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
}

// A background subagent: the main turn ends while the subagent still runs;
// Mew must never say done or idle until it has finished.
func TestBackgroundSubagent(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Agent))
	busy, err := s.r.WaitRegistry(sent, driver.Status("busy"), turn)
	if err != nil {
		t.Fatal(err)
	}
	working := s.expect("turn started → working", busy.At, fast, stateIs(session.Working))
	if _, err := s.r.WaitScreen(sent, agentLaunched, turn); err != nil {
		t.Fatal(err)
	}
	// The subagent runs until the stand-in API has written its whole reply.
	finished := s.replyFinished(fakeapi.Subtask + "/0")
	from := working.Sample.End
	bad := s.r.MewDuring(from, finished, func(sh session.Shown, listed bool) bool {
		return !listed || sh.State == session.Done || sh.State == session.Idle
	})
	n := s.r.SamplesIn(from, finished)
	t.Logf("subagent ran %v after Mew showed working; %d samples in that window", finished.Sub(from).Round(time.Millisecond), n)
	if n < 10 {
		t.Errorf("only %d samples while the subagent ran: the check proves nothing", n)
	}
	for _, b := range bad {
		sh, listed := b.Find(s.r.SessionID())
		t.Errorf("at %s (subagent still running) Mew showed %s (listed %v)", s.r.TL.Rel(b.End), driver.ShownString(sh), listed)
	}
	recordWindow(t.Name(), "never done/idle while the subagent runs", len(bad) == 0, n)
	// When the subagent reports back, Claude Code flips idle → busy within
	// a few ms and re-engages on its own (a task-notification prompt); the
	// turn ends after the stand-in's answer to that.
	noted := s.replyFinished("task-notification")
	end, err := s.r.WaitRegistry(noted, driver.Status("idle"), turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("re-engaged turn ended → done", end.At, fast, stateIs(session.Done))
}

// replyFinished waits until the stand-in API has finished a reply whose
// decision was why, and returns when.
func (s *scen) replyFinished(why string) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(turn)
	for time.Now().Before(deadline) {
		for _, l := range s.api.Log() {
			if l.Why == why && l.Finished {
				s.r.TL.Addf(l.FinishedAt, "api", "reply %s finished", why)
				return l.FinishedAt
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("the stand-in API never finished a %s reply", why)
	return time.Time{}
}

// Esc during a slow turn: no hook fires; Mew must stop saying working.
func TestEscDuringSlowTurn(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Slow))
	busy, err := s.r.WaitRegistry(sent, driver.Status("busy"), turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("turn started → working", busy.At, fast, stateIs(session.Working))
	if _, err := s.r.WaitScreen(sent, slowStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	// The CLI's own moment: its screen says so, or its registry goes idle.
	stopped := s.cliChange(esc, interrupted, "idle")
	t.Logf("the CLI showed the interruption %v after Esc", stopped.ref.Sub(esc).Round(time.Millisecond))
	s.expect("Esc → not working", stopped.ref, fast, listedAndNot(session.Working))
}

// Esc on a permission prompt: no hook fires; Mew must stop saying waiting.
func TestEscOnPermissionPrompt(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	esc := s.answer(permissionPrompt, shown.screen, "Escape")
	s.expect("Esc → not waiting", esc, fast, listedAndNot(session.Waiting))
}

// A plain-text question ends the turn (done, not waiting); /exit ends the
// session.
func TestQuestionThenExit(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Question))
	s.expect("turn ended with a question → done", s.turnEnd(sent), fast, stateIs(session.Done))
	exitAt := s.submit("/exit")
	// The CLI's own moment is its registry file going away.
	ref := exitAt
	if c, err := s.r.WaitRegistry(exitAt, driver.Gone, 5*time.Second); err == nil {
		ref = c.At
		t.Logf("the CLI removed its registry file %v after /exit", c.At.Sub(exitAt).Round(time.Millisecond))
	}
	s.expect("/exit → exited or gone", ref, exit, exitedOrGone)
	if _, ok := s.paneDeadBy(time.Now().Add(gone)); !ok {
		t.Errorf("the CLI itself did not exit within %v of /exit", gone)
	}
}

// Without `mew install` the session is still listed from the registry and
// waits on the permission prompt.
func TestNoInstallRegistryOnly(t *testing.T) {
	s := start(t, opts{noInstall: true})
	if _, err := os.Stat(s.r.ConfigDir + "/settings.json"); err == nil {
		t.Fatal("settings.json exists although mew install was not run")
	}
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission), registry only", shown.ref, fast, waitingFor(session.ReasonPermission))
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("prompt answered → not waiting", answered, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(answered), fast, stateIs(session.Done))
}

// ---- summary of latencies, printed after the run ----

type result struct {
	test, check string
	// "ok", "ok~" (on time only if Mew changed early in a slow sample),
	// "late" (past the goal, within the ceiling), "FAIL"
	verdict string
	lo, hi  time.Duration
	note    string
}

var (
	resultsMu sync.Mutex
	results   []result
	latencies []driver.Latency // every expect, for the goals over runs
)

func record(test, check string, res driver.MewResult, goal time.Duration) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	latencies = append(latencies, driver.Latency{Test: test, Check: check, Goal: goal, Res: res})
	r := result{test: test, check: check, lo: res.Lo, hi: res.Hi, verdict: "ok"}
	switch {
	case !res.Seen:
		r.verdict, r.note = "FAIL", fmt.Sprintf("not within %v", driver.Ceiling(goal)+grace)
	case !res.OK:
		r.verdict, r.note = "FAIL", fmt.Sprintf("past the ceiling %v", driver.Ceiling(goal))
	case !res.OnGoal:
		r.verdict, r.note = "late", fmt.Sprintf("goal %v", goal)
	case !res.Certain:
		r.verdict = "ok~"
	}
	results = append(results, r)
}

func recordWindow(test, check string, ok bool, samples int) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	v := "ok"
	if !ok {
		v = "FAIL"
	}
	results = append(results, result{test: test, check: check, verdict: v, note: fmt.Sprintf("%d samples", samples)})
}

func recordDurations(test string, d driver.Durations) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	results = append(results, result{test: test, check: "(mew status --json run time: median / p95 / max)", verdict: "",
		note: fmt.Sprintf("%d / %d / %d ms over %d samples", d.Median.Milliseconds(), d.P95.Milliseconds(), d.Max.Milliseconds(), d.N)})
}

func TestMain(m *testing.M) {
	code := m.Run()
	resultsMu.Lock()
	sort.SliceStable(results, func(i, j int) bool { return results[i].test < results[j].test })
	if len(results) > 0 {
		fmt.Println("e2e summary: latency from the CLI's change to the `mew status` sample that showed it, as lo–hi bounds (100 ms sampling)")
		for _, r := range results {
			lat := ""
			if r.hi != 0 {
				lat = fmt.Sprintf("%d–%d ms", r.lo.Milliseconds(), r.hi.Milliseconds())
			}
			fmt.Printf("  %-4s %-22s %-66s %12s %s\n", r.verdict, strings.TrimPrefix(r.test, "Test"), r.check, lat, r.note)
		}
		// The goals, judged over the runs (-count=N): a run fails only past
		// the ceiling, a goal is met or missed here.
		fmt.Printf("e2e goals over runs: median and p95 of the latency's bounds (lo–hi), runs provably within the goal; met = p95 of hi within it, met~ = p95 of lo; a run fails only past %d× the goal\n", driver.CeilingFactor)
		for _, g := range driver.Summarize(latencies) {
			fmt.Printf("  %-6s %-22s %-66s goal %5d ms  median %d–%d ms  p95 %d–%d ms  %d/%d runs within\n",
				g.Met(), strings.TrimPrefix(g.Test, "Test"), g.Check, g.Goal.Milliseconds(),
				g.LoMedian.Milliseconds(), g.HiMedian.Milliseconds(), g.LoP95.Milliseconds(), g.HiP95.Milliseconds(), g.Certain, g.Runs)
		}
	}
	resultsMu.Unlock()
	os.Exit(code)
}
