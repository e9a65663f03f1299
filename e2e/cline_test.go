package e2e

// The real Cline CLI (driver.ClineVersion) against the scripted chat
// completions API (package fakellm, which answers with Cline's
// run_commands tool), configured with `cline auth` and started with
// `--auto-approve false`, with Mew's hook files installed (`mew install
// --agent cline`: one script per event in ~/.cline/hooks) and its tmux
// server as the screen source. Cline has no approval event: the dialog,
// its answer and the exit are the screen's (goal 1 s); turns, tool calls
// and failures are the hooks' (0.5 s). The CLI's own moment of each change
// is the earliest of its screen and its own hooks (the driver's observer
// files next to Mew's).

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var clineCLI = agentCLI{
	name: driver.AgentCline, version: driver.ClineVersion, find: driver.FindCline,
	apiURL:    func(s *fakellm.Server) string { return s.OpenAIURL },
	dialog:    regexp.MustCompile(`\[y\] Approve\s+\[n\] Deny`),
	quoted:    regexp.MustCompile(`\[?y\]? Approve\s+\[?n\]? Deny`),
	apiError:  regexp.MustCompile(`(?m)^ \* Error: scripted bad request`),
	turnStart: func(h driver.HookSeen) bool { return h.Event == "TaskStart" },
	turnEnd:   func(h driver.HookSeen) bool { return h.Event == "TaskComplete" || h.Event == "TaskError" },
	quit:      []string{"C-c"}, // one Ctrl-C exits and prints its Session Summary
	allowKeys: []string{"y"},
	denyKeys:  []string{"n"},
	// Cline tells the model the call was rejected; its answer ends the turn.
	denyGoesOn: true,
	stopEvent:  func(h driver.HookSeen) bool { return h.Event == "SessionShutdown" || h.Event == "TaskCancel" },
	errorEvent: func(h driver.HookSeen) bool { return h.Event == "TaskError" },
	// A turn Esc stopped leaves its partial reply as a finished one's
	// (" * …"), no mark: only its hooks (TaskCancel, SessionShutdown) say.
	screenBlind: []string{"esc"},
	// No hook announces its approval dialog (PreToolUse fires for every
	// call, before it decides to ask): with the pane unread Mew cannot
	// show the wait, nor its answer.
	hooksBlind:        []string{"allow", "deny"},
	dialogUnannounced: true,
}

// clineDialog submits a shell scenario and returns when Cline drew its
// approval dialog (no event announces it: PreToolUse fires for every tool
// call, before Cline decides whether to ask).
func clineDialog(s *agentScen, scenario string) driver.Snap {
	s.t.Helper()
	sent := s.prompt(fakellm.Prompt(scenario))
	shown, err := s.r.WaitScreen(sent, s.cli.dialog, cliTurn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("approval dialog → waiting(permission)", shown.At, screenOnly, waitingFor(session.ReasonPermission))
	return shown
}

// A plain turn → done; the dialog → waiting(permission), allowed (y) →
// working → done; one Ctrl-C → exited. The hub daemon Cline leaves running
// is never a row of Mew's, and does not keep the exited session alive.
func TestClineTurnsAndExit(t *testing.T) {
	c := clineCLI
	s := startCLI(t, c)
	sent := s.prompt(fakellm.Prompt(fakellm.Text))
	end := s.observed(sent, "the plain turn's end", c.turnEnd)
	s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	s.hooksReported(end, c.name, "its hooks")
	doctor := exec.Command(s.r.Opts.Mew, "doctor", "--agent", "cline")
	doctor.Env = s.r.Env
	if out, err := doctor.CombinedOutput(); !strings.Contains(string(out), "Mew's hook files for Cline CLI are installed") {
		t.Errorf("mew doctor with Mew's hook files in place: %v\n%s", err, out)
	}

	// The reply after the call trickles (fakellm.BriefFor): the samples
	// between the answer and the turn's end judge that Mew kept working.
	shown := clineDialog(s, fakellm.ShellBrief)
	a, err := s.r.Answer(c.dialog, shown.At, "y")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("allowed → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	s.observed(a.Pressed, "the allowed call's result", func(h driver.HookSeen) bool { return h.Event == "PostToolUse" })
	end = s.observed(a.Pressed, "the turn's end", c.turnEnd)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	bad := s.r.MewDuring(a.Gone.Add(screenOnly), end.Add(-fast), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while the allowed command ran, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "allowed → working until the turn ends", len(bad) == 0, s.r.SamplesIn(a.Gone.Add(screenOnly), end.Add(-fast)))

	s.expect("quit → exited", s.quit(c.quit), exit, stateIs(session.Exited))
	hub := s.r.WaitClineHub(15 * time.Second)
	if hub == 0 {
		t.Logf("no hub daemon outlived the TUI within 15 s")
		return
	}
	// The daemon outlives the TUI (ppid 1, no terminal): with the process
	// scan on, Mew lists no row of it, and the session stays exited.
	scan := s.r.StatusWithProcScan()
	if scan.Err != "" {
		t.Fatalf("mew status with the process scan: %s", scan.Err)
	}
	for _, sh := range scan.Sessions {
		if sh.Pid == hub {
			t.Errorf("Mew lists Cline's hub daemon (pid %d): %s", hub, driver.ShownString(sh))
		}
	}
	if sh, ok := scan.Find(s.r.SessionID()); !ok || sh.State != session.Exited {
		t.Errorf("with the hub daemon still running, the session is %s (listed %v), want exited", driver.ShownString(sh), ok)
	}
	t.Logf("Cline's hub daemon (pid %d) outlived the TUI; not listed, the session exited", hub)
}

// The dialog denied (n) → not waiting, and the turn ends done (Cline tells
// the model the call was rejected); an API error → failed (TaskError, and
// `* Error:` on the screen).
func TestClineDenyAndError(t *testing.T) {
	c := clineCLI
	s := startCLI(t, c)
	shown := clineDialog(s, fakellm.Shell)
	a, err := s.r.Answer(c.dialog, shown.At, "n")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied (n) → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	end := s.observed(a.Pressed, "the turn's end after the denial", c.turnEnd)
	s.expect("turn ended after the denial → done", end, fast, stateIs(session.Done))

	sent := s.prompt(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	ref := snap.At
	if e := s.observed(sent, "TaskError", func(h driver.HookSeen) bool { return h.Event == "TaskError" }); e.Before(ref) {
		ref = e
	}
	t.Logf("API error: shown %.1f s after the prompt", snap.At.Sub(sent).Seconds())
	s.expect("API error → failed", ref, fast, stateIs(session.Failed))

	// HTTP 500 on every request: Cline retries (its 6 requests take 63 s
	// unless the server says when to retry: the stand-in says 500 ms),
	// working all the while, then failed.
	sent = s.prompt(fakellm.Prompt(fakellm.Outage))
	snap, err = s.r.WaitScreen(sent, regexp.MustCompile(`(?m)^ \* Error: scripted outage`), cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	ref = snap.At
	if e := s.observed(sent, "TaskError", func(h driver.HookSeen) bool { return h.Event == "TaskError" }); e.Before(ref) {
		ref = e
	}
	retries := 0
	for _, l := range s.api.Log() {
		if !l.At.Before(sent) && l.Status == 500 {
			retries++
		}
	}
	t.Logf("HTTP 500: %d requests, failed %.1f s after the prompt", retries, ref.Sub(sent).Seconds())
	// From the turn's start: Cline can drop an Enter typed right after an
	// error (prompt presses it again), and until then the error stands.
	start := s.observed(sent, "the turn's start", c.turnStart)
	bad := s.r.MewDuring(start.Add(fast), ref.Add(-fast), func(sh session.Shown, listed bool) bool { return listed && sh.State != session.Working })
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while Cline retried, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "HTTP 500 retried → working until it gives up", len(bad) == 0, s.r.SamplesIn(start.Add(fast), ref.Add(-fast)))
	s.expect("retries given up → failed", ref, fast, stateIs(session.Failed))

	// Esc while the answer streams: Cline runs SessionShutdown (TaskCancel
	// never ran) → idle.
	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	h, err := s.r.WaitHook(esc, func(h driver.HookSeen) bool { return h.Event == "SessionShutdown" || h.Event == "TaskCancel" }, cliTurn)
	if err != nil {
		t.Fatalf("no hook after Esc: %v; screen:\n%s", err, driver.Excerpt(s.r.Screen(), 8))
	}
	t.Logf("Esc while working: %s %.2f s after the key: %.300s", h.Event, h.At.Sub(esc).Seconds(), h.Doc)
	s.expect("Esc while working → idle", h.At, fast, stateIs(session.Idle))
}

// clineAsks is Cline's question dialog (its ask_question tool), drawn in
// place of the input box; clineQuoted a reply's quote of it (indented
// under " * ").
var (
	clineAsks   = regexp.MustCompile(`(?m)^ Cline is asking a question`)
	clineQuoted = regexp.MustCompile(`(?m)^   Cline is asking a question`)
)

// isAskQuestion is the hook of Cline's question tool (tool_call or
// tool_result).
func isAskQuestion(event string) func(driver.HookSeen) bool {
	return func(h driver.HookSeen) bool {
		return h.Event == event && strings.Contains(string(h.Doc), `"name":"ask_question"`)
	}
}

// clineQuestion walks Cline's question tool in one session of mode: a reply
// quoting the dialog → done, never waiting; the question → waiting(question)
// (hooks: its tool_call, which is the question: ask_question asks whenever
// called); answered with 2 → not waiting, Vue reaches the model, the turn →
// done; asked again and dismissed with Esc → not waiting, and the turn
// (Cline tells the model) → done.
func clineQuestion(t *testing.T, mode string) {
	w := startWalk(t, clineCLI, mode)
	sent := w.prompt(fakellm.Prompt(fakellm.QuoteCline))
	end := w.turnEnded(sent, fakellm.QuoteCline, "the quoting turn's end")
	if _, err := w.r.WaitScreen(sent, clineQuoted, 5*time.Second); err != nil {
		t.Fatalf("the reply's quote of the question never showed: %v; screen:\n%s", err, driver.Excerpt(w.r.Screen(), 20))
	}
	w.expect("a reply quoting the question → done", end, w.goal, stateIs(session.Done))
	w.never("a reply quoting the question: never waiting", sent, end.Add(settleAfter), shows(session.Waiting))

	for _, answer := range []string{"2", "Escape"} {
		sent := w.prompt(fakellm.Prompt(fakellm.Ask))
		shown, err := w.r.WaitScreen(sent, clineAsks, cliTurn)
		if err != nil {
			t.Fatal(err)
		}
		ref := shown.At
		if w.mode != modeScreen {
			if ev := w.observed(sent, "the question's tool_call", isAskQuestion("PreToolUse")); w.mode == modeHooks || ev.Before(ref) {
				ref = ev
			}
		}
		res := w.expect("the question → waiting(question)", ref, w.goal, waitingFor(session.ReasonQuestion))
		if w.mode != modeScreen && res.Seen && res.Shown.ToolDetail != fakellm.AskQuestion {
			t.Errorf("the question's detail: %q, want %q", res.Shown.ToolDetail, fakellm.AskQuestion)
		}
		a, err := w.r.Answer(clineAsks, shown.At, answer)
		if err != nil {
			t.Fatal(err)
		}
		left := a.Gone
		if w.mode == modeHooks {
			left = w.observed(a.Pressed, "the question's tool_result", isAskQuestion("PostToolUse"))
		}
		what := map[string]string{"2": "answered (2)", "Escape": "dismissed (Esc)"}[answer]
		w.expect(what+" → not waiting", left, w.goal, listedAndNot(session.Waiting))
		end := w.turnEnded(a.Pressed, fakellm.Ask, "the question's turn's end")
		w.never(what+": never waiting again", left.Add(w.goal), end.Add(settleAfter), shows(session.Waiting))
		result := regexp.MustCompile(`⎿ Vue`)
		if answer == "Escape" {
			result = regexp.MustCompile(`⎿ \[User dismissed the question\]`)
		}
		if _, err := w.r.WaitScreen(a.Pressed, result, 5*time.Second); err != nil {
			t.Errorf("%s: the tool's result %q never showed: %v", what, result, err)
		}
		w.staysDone(what+", the turn", end)
	}
}

func TestClineQuestion(t *testing.T)       { clineQuestion(t, modeHooksPane) }
func TestClineQuestionScreen(t *testing.T) { clineQuestion(t, modeScreen) }
func TestClineQuestionHooks(t *testing.T)  { clineQuestion(t, modeHooks) }
