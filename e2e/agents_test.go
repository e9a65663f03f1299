package e2e

// The real OpenCode (driver.OpenCodeVersion) and Gemini CLI
// (driver.GeminiVersion) against scripted model APIs on loopback (package
// fakellm): OpenCode through a custom OpenAI-compatible provider, Gemini
// CLI through GOOGLE_GEMINI_BASE_URL. Mew is installed with `mew install
// --agent NAME` (OpenCode: Mew's plugin; Gemini CLI: hooks in its
// settings.json) and reads the run's tmux server as its screen source. The
// CLI's own moment of each change is the earliest of its screen and its own
// events, which a plugin (OpenCode) or hooks (Gemini CLI) of the driver's
// own log next to Mew's.

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// agentCLI is what a scenario needs to know of one CLI.
type agentCLI struct {
	name, version string
	find          func(string) (string, error)
	apiURL        func(*fakellm.Server) string
	dialog        *regexp.Regexp // its permission dialog
	// quoted is a reply quoting the dialog's lines as the CLI draws it,
	// when not as dialog matches (Cline's markdown drops "[y]"'s brackets
	// once the reply is rendered whole).
	quoted   *regexp.Regexp
	apiError *regexp.Regexp // an API error on its screen
	stopped  *regexp.Regexp // its screen after Esc stopped a turn
	stop     []string       // the keys that stop a running turn
	// turnStart and turnEnd say whether an observed event starts or ends
	// a turn; dialogEvent whether it announces the permission dialog.
	turnStart, turnEnd, dialogEvent func(driver.HookSeen) bool
	quit                            []string // keys that make it exit when idle
	// startup bounds its first screen when longer than 2×ready (Kilo
	// fetches provider model lists first: 1-2 min on a loaded machine).
	startup time.Duration
	// noInstall runs it without `mew install` (what Mew reads with no
	// setup: its own logs, the screen, the process).
	noInstall bool

	// Of the conformance walk (conform_test.go):
	// bin is the name an npm global install links it as (name when "").
	bin string
	// stopHint is what the CLI says after the first of two stop keys.
	stopHint *regexp.Regexp
	// rejectBox is the box Esc on its dialog opens, which Enter rejects
	// (Kilo asks what to do instead).
	rejectBox *regexp.Regexp
	// denyGoesOn: the denial goes to the model, whose answer ends the
	// turn (done), rather than ending it (idle).
	denyGoesOn bool
	// denyEnd is its own event when a denied turn is over (a prompt typed
	// before it is lost or queued).
	denyEnd func(driver.HookSeen) bool
	// denyRuns: after a denial it still runs, its screen says so, until
	// denyEnd (OpenCode finishes the turn): working is right until then.
	denyRuns bool
	// errorEvent is its own event for an API error.
	errorEvent func(driver.HookSeen) bool
	// dialogUnannounced: none of its hooks tells Mew its dialog is up, so
	// with the pane unread the walk expects working while it waits.
	dialogUnannounced bool
	// hooksErrorIdle: its hooks end an API error's turn as any other, so
	// with the pane unread idle is all Mew can say (not done).
	hooksErrorIdle bool
	// allowKeys and denyKeys answer its dialog (Enter, Escape when nil).
	allowKeys, denyKeys []string
	// shell is the scenario that opens its dialog (fakellm.Shell when
	// ""), shellBrief the one whose reply after the call trickles
	// (fakellm.ShellBrief): pi asks only through its permission gate
	// (fakellm.DangerBrief). failure is the scenario whose API error fails
	// its turn (fakellm.Error when ""; pi retries every error: Down).
	shell, shellBrief, failure string
	// stopEvent is its own event for a stopped turn, when its screen
	// draws no stop line (stopped nil).
	stopEvent func(driver.HookSeen) bool
	// idleAgain is its screen once it takes a prompt again after a turn
	// (Copilot draws the turn running past its agentStop).
	idleAgain *regexp.Regexp
	// unwalked are the classes the walk cannot make it do here, in any
	// mode (the matrix says why).
	unwalked []string
	// screenBlind are the classes its screen cannot tell here, with
	// nothing installed: the screen-only walk leaves them out.
	screenBlind []string
	// answeredEvent is its first event after an allowed dialog, when none
	// says the answer itself: with the pane unread the wait can end no
	// sooner (Gemini CLI: AfterTool, once the call ran).
	answeredEvent func(driver.HookSeen) bool
	// hooksBlind are the classes (e2e/matrix ids) its hooks cannot tell
	// with the pane unread: the hooks-only walk leaves them out.
	hooksBlind []string
	// screenTurnEnd is its own end of the turn of scenario started at
	// since, when no event of its says (Grok CLI: its screen).
	screenTurnEnd func(s *agentScen, since time.Time, scenario string) time.Time
	// streams is its screen while a slow reply streams (the reply's
	// text when nil).
	streams *regexp.Regexp
	// exit makes it exit its own way and returns the moment it did (quit
	// keys otherwise).
	exit func(*agentScen) time.Time
	// noObserver runs it without the driver's observer (driver.Options
	// NoObserver): no event of its own is seen, the screen and the
	// stand-in's log are the references.
	noObserver bool
	// taken is its screen once it took a typed prompt, when no event of
	// its own says (Gemini CLI: its input box's placeholder back, the
	// prompt started or queued).
	taken *regexp.Regexp
	// Of the question step (conform_question_test.go): questionDialog is
	// its dialog for fakellm.Ask (nil: the step is not walked),
	// questionApart walks it in a session of its own (conformQuestion),
	// not in conformWalk; questionEvent and questionOver are its own
	// events for the dialog shown and answered or dismissed;
	// questionKeys pick the first choice (Enter when nil), dismissKeys
	// dismiss it (Escape when nil); dismissGoesOn: the model is told of a
	// dismissal and answers (done), rather than the turn ending with it
	// (idle); questionQuote is a scenario replying with the dialog's rows,
	// questionQuoted the quote as drawn (questionDialog when nil).
	questionDialog, questionQuoted *regexp.Regexp
	questionApart                  bool
	questionEvent, questionOver    func(driver.HookSeen) bool
	questionKeys, dismissKeys      []string
	dismissGoesOn                  bool
	questionQuote                  string
	// dismissIdle: its dismissal ends the turn (idle, never done once it
	// is over); neither it nor dismissGoesOn: only not waiting is judged.
	dismissIdle bool
	// args replace the driver's arguments for it (a mode it starts in).
	args []string
}

var (
	openCodeCLI = agentCLI{
		name: driver.AgentOpenCode, version: driver.OpenCodeVersion, find: driver.FindOpenCode,
		apiURL:         func(s *fakellm.Server) string { return s.OpenAIURL },
		dialog:         regexp.MustCompile(`△ Permission required`),
		apiError:       regexp.MustCompile(`scripted bad request`),
		stopped:        regexp.MustCompile(`· interrupted`),
		stop:           []string{"Escape", "Escape"}, // "esc again to interrupt"
		turnStart:      func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "busy" },
		turnEnd:        func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "idle" },
		dialogEvent:    func(h driver.HookSeen) bool { return h.Event == "permission.asked" },
		quit:           []string{"C-c"},
		stopHint:       escAgain,
		denyEnd:        func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "idle" },
		denyRuns:       true,
		errorEvent:     func(h driver.HookSeen) bool { return h.Event == "session.error" },
		questionDialog: openCodeQuestion, questionEvent: openCodeAsked, questionOver: openCodeAnswered,
		questionApart: true, questionQuote: fakellm.QuoteAsk, dismissIdle: true,
	}
	geminiCLI = agentCLI{
		name: driver.AgentGemini, version: driver.GeminiVersion, find: driver.FindGemini,
		apiURL:      func(s *fakellm.Server) string { return s.GeminiURL },
		dialog:      regexp.MustCompile(`Allow execution of`),
		apiError:    regexp.MustCompile(`✕ \[API Error`),
		stopped:     regexp.MustCompile(`Request cancelled`),
		stop:        []string{"Escape"},
		turnStart:   func(h driver.HookSeen) bool { return h.Event == "BeforeAgent" },
		turnEnd:     func(h driver.HookSeen) bool { return h.Event == "AfterAgent" },
		dialogEvent: func(h driver.HookSeen) bool { return h.Event == "Notification" && h.Kind == "ToolPermission" },
		quit:        []string{"C-c", "C-c"}, // "Press Ctrl+C again to exit"
		// Its hooks have no error event: an API error ends the turn with
		// an ordinary AfterAgent.
		hooksErrorIdle: true,
		// No hook fires for an Esc on its dialog, and a stopped turn ends
		// with an ordinary AfterAgent (its text so far as the reply).
		hooksBlind: []string{"deny", "esc"},
		// The driver's own hooks (its observer) make Gemini CLI draw their
		// status ("ok: { cat; …") over its spinner row: while a reply
		// streams, and between a call's end and the model's next reply,
		// its screen often shows no turn running (a turn after a denial
		// or an Esc was read as no turn at all, idle). Walked without the
		// observer: geminiScreenCLI (gemini_screen_test.go).
		screenBlind:   []string{"allow", "deny", "esc"},
		answeredEvent: func(h driver.HookSeen) bool { return h.Event == "AfterTool" },
		// ask_user's confirmation box (Enter picks the first choice).
		questionDialog: regexp.MustCompile(`Enter to select · ↑/↓ to navigate · Esc to cancel`),
		// Its Notification (ToolPermission) announces the question too.
		questionEvent: func(h driver.HookSeen) bool { return h.Event == "Notification" && h.Kind == "ToolPermission" },
	}
)

// cliTurn: OpenCode takes seconds between a turn's requests on a loaded
// machine (its title request, snapshots); a scripted turn ends well within.
const cliTurn = 90 * time.Second

func needCLI(t *testing.T, c agentCLI) *binaries {
	t.Helper()
	return needCLIBinaries(t, c.name, c.version, c.find, driver.ErrNoCLI, nil)
}

// agentScen is one scenario of an agent CLI.
type agentScen struct {
	*scen
	cli agentCLI
	api *fakellm.Server
}

func startCLI(t *testing.T, c agentCLI) *agentScen { return startCLIWrapped(t, c, nil) }

// startCLIWrapped is startCLI with the CLI's command line after wrap
// (`mew run --`).
func startCLIWrapped(t *testing.T, c agentCLI, wrap []string) *agentScen {
	return startCLIWith(t, c, func(o *driver.Options) { o.Wrap = wrap })
}

// startCLIWith is startCLI with the driver's options changed by opts.
func startCLIWith(t *testing.T, c agentCLI, opts func(*driver.Options)) *agentScen {
	t.Parallel()
	setup := needCLI(t, c)
	api, err := fakellm.Start(fakellm.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	o := driver.Options{
		Agent: c.name, Program: setup.program, APIURL: c.apiURL(api), Dir: t.TempDir(), Mew: setup.mew, Install: !c.noInstall,
		NoObserver: c.noObserver,
		Args:       c.args,
	}
	opts(&o)
	r, err := driver.Launch(o)
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
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
				r.TL.Addf(l.At, "api", "%s %d %s", l.Path, l.Status, l.Why)
			}
			t.Logf("timeline (Mew left, the CLI right; seconds since the CLI started):\n%s", r.TL.String())
		}
	})
	// OpenCode takes 10-25 s to draw its first screen on a loaded 2-core
	// machine, more with four starting at once.
	if err := r.WaitReady(max(2*ready, c.startup)); err != nil {
		t.Fatal(err)
	}
	return &agentScen{scen: &scen{t: t, r: r}, cli: c, api: api}
}

// observed waits for the CLI's own event after since.
func (s *agentScen) observed(since time.Time, what string, ok func(driver.HookSeen) bool) time.Time {
	s.t.Helper()
	h, err := s.r.WaitHook(since, ok, cliTurn)
	if err != nil {
		s.t.Fatalf("%s: %v; screen:\n%s", what, err, driver.Excerpt(s.r.Screen(), 12))
	}
	return h.At
}

// busyHint is the CLI still running hooks after a turn (Gemini CLI shows
// them on its status row); a prompt submitted then can be lost.
var busyHint = regexp.MustCompile(`Executing Hook`)

// prompt submits a prompt once the CLI is settled, and presses Enter again
// if the CLI did not take it (no turn started within 3 s): on a loaded
// machine Gemini CLI drops an Enter that comes while it finishes a turn,
// and OpenCode one right after an API error (it sends "idle" again instead,
// so only a turn's start counts).
func (s *agentScen) prompt(text string) time.Time {
	s.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); busyHint.MatchString(s.r.Screen()) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	sent, err := s.r.Submit(text)
	if err != nil {
		// Qwen Code cleared a prompt typed as it finished a turn's hooks
		// (its input box showed its placeholder again): type it again.
		s.t.Logf("typing the prompt again: %v", err)
		sent = s.submit(text)
	}
	for try := 0; try < 2; try++ {
		if s.cli.turnStart == nil {
			// No event of its own: the stand-in asked is the turn's start.
			for deadline := time.Now().Add(3 * time.Second); !s.asked(sent, text) && !s.took(sent) && time.Now().Before(deadline); {
				time.Sleep(50 * time.Millisecond)
			}
		}
		if s.cli.turnStart == nil && (s.asked(sent, text) || s.took(sent)) {
			return sent
		}
		if s.cli.turnStart == nil {
			s.t.Logf("the CLI did not take the prompt within 3 s: Enter again")
			s.press("Enter")
			continue
		}
		if _, err := s.r.WaitHook(sent, s.cli.turnStart, 3*time.Second); err == nil || s.asked(sent, text) {
			return sent
		}
		s.t.Logf("the CLI did not take the prompt within 3 s: Enter again")
		s.press("Enter")
	}
	return sent
}

// took reports whether the CLI's screen said it took the prompt submitted
// at sent (cli.taken), though the stand-in was not asked yet: an Enter
// pressed again then could answer the dialog the turn opens.
func (s *agentScen) took(sent time.Time) bool {
	if s.cli.taken == nil {
		return false
	}
	for _, sn := range s.r.Screens() {
		if !sn.At.Before(sent) && s.cli.taken.MatchString(sn.Text) {
			return true
		}
	}
	return false
}

// asked reports whether the stand-in was asked for prompt's scenario since
// sent: the CLI took the prompt though its hook has not reported yet (on a
// loaded machine Qwen's came 3 s late, and an Enter pressed again then
// answered the dialog the turn opened).
func (s *agentScen) asked(since time.Time, prompt string) bool {
	_, ok := s.askedAt(since, prompt)
	return ok
}

// askedAt is when the stand-in was first asked for prompt's scenario
// since since.
func (s *agentScen) askedAt(since time.Time, prompt string) (time.Time, bool) {
	i := strings.LastIndex(prompt, "mew-e2e-")
	if s.api == nil || i < 0 {
		return time.Time{}, false
	}
	name := prompt[i+len("mew-e2e-"):]
	for _, l := range s.api.Log() {
		if l.At.After(since) && strings.HasPrefix(l.Why, name+"/") {
			return l.At, true
		}
	}
	return time.Time{}, false
}

// dialogShown submits the shell scenario and returns when the CLI showed
// its permission dialog (its screen or its own event, the earlier).
func (s *agentScen) dialogShown(scenario string) driver.Snap {
	s.t.Helper()
	sent := s.prompt(fakellm.Prompt(scenario))
	shown, err := s.r.WaitScreen(sent, s.cli.dialog, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	if ev := s.observed(sent, "the dialog's event", s.cli.dialogEvent); ev.Before(shown.At) {
		shown.At = ev
	}
	s.expect("permission dialog → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	return shown
}

// A plain turn → done; a permission dialog → waiting(permission), allowed
// → working → done; the CLI quits → exited. One run: the CLI's start-up is
// most of a scenario's time.
func agentTurnsAndExit(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the plain turn's end", c.turnEnd)
	s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, c.name, "its hooks (plugin)")

	// The reply after the call trickles (fakellm.BriefFor): the samples
	// between the answer and the turn's end judge that Mew kept working.
	shown := s.dialogShown(fakellm.ShellBrief)
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	left := s.expect("allowed → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	end = s.observed(a.Pressed, "the turn's end", c.turnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	s.workingWhileAllowedRuns(left, a.Gone, end)

	s.expect("quit → exited", s.quit(c.quit), exit, stateIs(session.Exited))
}

// workingWhileAllowedRuns checks the samples while an allowed command
// ran: working, and nothing else, from when every kind of sample had left
// the wait (left, whose latency its own check judges: a screen read every
// SweepEvery on a loaded machine may be past the goal, not past the
// ceiling) to within fast of the turn's end.
func (s *scen) workingWhileAllowedRuns(left driver.MewResult, gone, end time.Time) {
	s.t.Helper()
	from, to := gone.Add(fast), end.Add(-fast)
	for _, m := range left.Modes {
		if m.Seen && m.Sample.End.After(from) {
			from = m.Sample.End
		}
	}
	working := s.r.MewDuring(gone, end, func(sh session.Shown, listed bool) bool { return listed && sh.State == session.Working })
	all := s.r.MewDuring(gone, end, func(session.Shown, bool) bool { return true }) // both kinds, as working
	s.t.Logf("allowed → working: %d of %d samples between the answer and the turn's end showed working; judged from %s", len(working), len(all), s.r.TL.Rel(from))
	bad := s.r.MewDuring(from, to, func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		s.t.Errorf("while the allowed command ran, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(s.t.Name(), "allowed → working until the turn ends", len(bad) == 0, s.r.SamplesIn(from, to))
}

// pressAgain is a CLI asking for its quit key once more (Gemini CLI:
// "Press Ctrl+C again to exit.", for a second or so).
var pressAgain = regexp.MustCompile(`again to (exit|quit)`)

// quit presses keys to make the CLI exit and returns when its pane was seen
// dead. Each key but the last waits until the CLI asks for the next, and a
// sequence that ended without an exit (on a loaded machine the CLI's
// window for the second key can pass before it draws the first) starts
// over, until gone passes.
func (s *scen) quit(keys []string) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(gone)
	for time.Now().Before(deadline) {
		for i, k := range keys {
			at := s.press(k)
			if i < len(keys)-1 {
				s.r.WaitScreen(at, pressAgain, time.Until(deadline)) // missed: press anyway
			}
		}
		if at, ok := s.paneDeadBy(time.Now().Add(min(turn/3, time.Until(deadline)))); ok {
			return at
		}
	}
	s.t.Fatalf("the TUI did not exit within %v of its quit keys %q", gone, keys)
	return time.Time{}
}

// A permission dialog denied with Esc → not waiting (Gemini CLI fires no
// hook for it: the screen corrects the wait); then the API answers an
// error the CLI does not retry → failed (Gemini CLI reports it as an
// ordinary AfterAgent: only its screen says it failed); then Esc while a
// turn runs → idle.
func agentDenyAndError(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Esc → not waiting", a.Gone, time.Second, listedAndNot(session.Waiting))
	if c.name == driver.AgentOpenCode {
		// OpenCode finishes the turn after the reject: a prompt typed
		// before it is idle again can be lost.
		s.observed(a.Pressed, "idle after the reject", c.turnEnd)
	}

	sent := s.prompt(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	ref := snap.At
	if c.name == driver.AgentOpenCode {
		if e := s.observed(sent, "session.error", func(h driver.HookSeen) bool { return h.Event == "session.error" }); e.Before(ref) {
			ref = e
		}
	}
	s.expect("API error → failed", ref, fast, stateIs(session.Failed))

	// Esc while the answer streams: the person stopped it — idle, not done
	// (Gemini CLI ends it with an ordinary AfterAgent; its screen says
	// "Request cancelled").
	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	var stopped driver.Snap
	if len(c.stop) == 2 { // OpenCode: Esc, then Esc again once it says so
		stopped = s.interruptTwice(c.stopped, escAgain)
	} else {
		esc := s.press(c.stop...)
		if stopped, err = s.r.WaitScreen(esc, c.stopped, cliTurn); err != nil {
			t.Fatal(err)
		}
	}
	// Not one of the goals: Gemini CLI's AfterAgent (which the
	// screen corrects) comes a hook process later; 1 s.
	s.expect("Esc while working → idle", stopped.At, time.Second, stateIs(session.Idle))
}

// streaming is the slow scenario's reply on screen.
var streaming = regexp.MustCompile(`Thinking it over slowly`)

func TestOpenCodeTurnsAndExit(t *testing.T) { agentTurnsAndExit(t, openCodeCLI) }
func TestOpenCodeDenyAndError(t *testing.T) { agentDenyAndError(t, openCodeCLI) }

func TestGeminiTurnsAndExit(t *testing.T) { agentTurnsAndExit(t, geminiCLI) }
func TestGeminiDenyAndError(t *testing.T) { agentDenyAndError(t, geminiCLI) }
