package e2e

// The conformance walk (issue 35): one session of an agent CLI walks the
// scenario classes of e2e/matrix in a row — a fresh pane, a plain turn, a
// reply quoting the agents' dialogs, a permission allowed, one denied and
// the next turn, Esc while a reply streams and the next turn, an API error
// and the next turn, the agent's question where it has one — and ends with a normal exit or kill -9 while its dialog waits. The same
// script runs for every agent driven through agentCLI, in each mode Mew
// reads it in, so a class fixed for one agent is checked for all. An
// agent's quirks are fields of agentCLI, not branches here.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// The modes of e2e/matrix.
const (
	modeHooksPane = "hooks+pane" // mew install, the pane read
	modeScreen    = "screen"     // no install: the screen (`mew run`) and the process
	modeHooks     = "hooks"      // mew install, the pane not read
)

// walk is one conformance walk.
type walk struct {
	*agentScen
	mode string
	// goal is the latency goal of a change: 0.5 s with hooks, 1 s when
	// only the screen says it.
	goal time.Duration
	// text is the plain turn's scenario: with only the screen read,
	// fakellm.Brief, whose reply trickles for 2 s (a screen read every
	// 700 ms sees a turn running; the stand-in answers in milliseconds, a
	// model does not).
	text string
}

// startWalk starts c for mode, each mode in its own launcher shape:
// hooks+pane by the name of an npm-global-style link on PATH; screen under
// `mew run -- env VAR=… <name>` (that link again) with nothing installed;
// hooks as `env VAR=… <program>` with the run's tmux server hidden.
func startWalk(t *testing.T, c agentCLI, mode string) *walk {
	w := &walk{mode: mode, goal: fast, text: fakellm.Text}
	// Several CLIs starting at once on a busy 2-core machine: OpenCode's
	// first screen took over 90 s under a load of 40.
	c.startup = max(c.startup, 3*time.Minute)
	w.agentScen = startCLIWith(t, c, func(o *driver.Options) {
		env := []string{"env", "MEW_E2E_LAUNCHER=env"}
		switch mode {
		case modeHooksPane:
			o.Install = !c.noInstall
			linkOnPath(t, c, o)
		case modeScreen:
			o.Install = false
			o.AnyID = true
			linkOnPath(t, c, o)
			o.Wrap = append([]string{o.Mew, "run", "--"}, env...)
			w.goal, w.text = screenGoal, fakellm.Brief
		case modeHooks:
			o.Install = true
			o.Wrap = env
			hooksOnly(o)
		default:
			t.Fatalf("unknown mode %q", mode)
		}
	})
	t.Cleanup(func() {
		if w.agentScen == nil {
			return
		}
		if pids := w.r.KillLeftovers(); len(pids) > 0 {
			t.Logf("ended the processes the CLI left running: %v", pids)
		}
	})
	return w
}

// linkOnPath makes the shape an npm global install gives: <prefix>/bin/<name>
// a link into the package, <prefix>/bin on PATH, the CLI started by name.
func linkOnPath(t *testing.T, c agentCLI, o *driver.Options) {
	target, err := filepath.EvalSymlinks(o.Program)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "npm-global", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	name := c.bin
	if name == "" {
		name = c.name
	}
	if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
		t.Fatal(err)
	}
	o.Command = name
	prev := o.Setup
	o.Setup = func(r *driver.Run) error {
		for i, kv := range r.Env {
			if strings.HasPrefix(kv, "PATH=") {
				r.Env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
			}
		}
		if prev != nil {
			return prev(r)
		}
		return nil
	}
}

// conformWalk walks every class of the matrix that c has in one session,
// ending with end ("exit" or "kill").
func conformWalk(t *testing.T, c agentCLI, mode, end string) {
	w := startWalk(t, c, mode)
	w.fresh()
	w.plainTurn()
	w.quote()
	if w.walks("allow") {
		w.allow()
	}
	if w.walks("deny") {
		w.deny()
	}
	if w.walks("esc") {
		w.escWhileStreaming()
	}
	w.apiError()
	// After the error: the next step is the walk's end, which reads
	// whatever an Esc on the question left (Gemini CLI's screen takes
	// the turn after one for none, as after a denial).
	if c.questionDialog != nil && !c.questionApart && w.walks("question") {
		w.question()
	}
	switch end {
	case "exit":
		w.expect("quit → exited", w.exit(), exit, exitedOrGone)
	case "kill":
		w.killWhileWaiting()
	}
}

// walks reports whether the walk takes class: not one the agent's hooks
// cannot tell when they are all Mew reads, nor one its screen cannot tell
// here when it is.
func (w *walk) walks(class string) bool {
	if slices.Contains(w.cli.unwalked, class) {
		w.t.Logf("%s: left out: the walk cannot make it do that here", class)
		return false
	}
	if w.mode == modeHooks && slices.Contains(w.cli.hooksBlind, class) {
		w.t.Logf("%s: left out: its hooks cannot tell it with the pane unread", class)
		return false
	}
	if w.mode == modeScreen && slices.Contains(w.cli.screenBlind, class) {
		w.t.Logf("%s: left out: its screen cannot tell it here", class)
		return false
	}
	return true
}

// fresh: before any turn the session is idle (or, hooks only, not yet
// listed), and nothing else, in both kinds of samples.
func (w *walk) fresh() {
	w.t.Helper()
	at := time.Now()
	from := at
	if w.mode != modeHooks {
		res := w.expect("fresh pane → idle", at, w.goal, stateIs(session.Idle))
		from = at.Add(res.Hi)
	}
	w.never("fresh pane: idle until the first prompt", from, from.Add(settleAfter), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Idle
	})
}

// staysDone: the turn that ended at end is done, and not idle after it
// (a stop marker left on the screen once read so).
func (w *walk) staysDone(what string, end time.Time) {
	w.t.Helper()
	res := w.expect(what+" → done", end, w.goal, stateIs(session.Done))
	from := end.Add(max(res.Hi, w.goal))
	w.never(what+": never idle after it", from, from.Add(settleAfter), func(sh session.Shown, listed bool) bool {
		return !listed || sh.State == session.Idle
	})
}

// turnEnded is the CLI's own end of the turn started at since.
func (w *walk) turnEnded(since time.Time, scenario, what string) time.Time {
	w.t.Helper()
	if w.cli.turnEnd == nil {
		return w.cli.screenTurnEnd(w.agentScen, since, scenario)
	}
	end := w.observed(since, what, w.cli.turnEnd)
	if w.cli.idleAgain != nil {
		if _, err := w.r.WaitScreen(end, w.cli.idleAgain, cliTurn); err != nil {
			w.t.Fatal(err)
		}
	}
	return end
}

// or is s, or def when s is "".
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// orKeys is keys, or def when there are none.
func orKeys(keys []string, def ...string) []string {
	if len(keys) == 0 {
		return def
	}
	return keys
}

func (w *walk) plainTurn() {
	w.t.Helper()
	sent := w.prompt(fakellm.Prompt(w.text))
	w.staysDone("plain turn", w.turnEnded(sent, w.text, "the plain turn's end"))
}

// quote: a reply quoting the agents' dialog lines is no dialog.
func (w *walk) quote() {
	w.t.Helper()
	sent := w.prompt(fakellm.Prompt(fakellm.Quote))
	end := w.turnEnded(sent, fakellm.Quote, "the quoting turn's end")
	quoted := w.cli.dialog
	if w.cli.quoted != nil {
		quoted = w.cli.quoted
	}
	if _, err := w.r.WaitScreen(sent, quoted, 5*time.Second); err != nil {
		w.t.Errorf("the reply's quote of %q never showed: %v; screen:\n%s", quoted, err, driver.Excerpt(w.r.Screen(), 14))
	}
	w.expect("quoting reply ended → done", end, w.goal, stateIs(session.Done))
	w.never("never waiting for a quoted dialog", sent, end.Add(settleAfter), shows(session.Waiting))
	// A long reply scrolls the quote off the screen: the dialogs to come
	// are found (and seen gone) by their own line.
	sent = w.prompt(fakellm.Prompt(fakellm.Long))
	longEnd := w.turnEnded(sent, fakellm.Long, "the long reply's end")
	w.staysDone("the long reply", longEnd)
	// The agent may report the turn's end before it has drawn the reply:
	// Qwen Code at a load of 30 still showed its first 2 rows 2 s after
	// its Stop.
	for deadline := time.Now().Add(cliTurn); w.cli.dialog.MatchString(w.r.Screen()); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) { // the driver's captures come on a timer: no event to wait on
			w.t.Fatalf("the quote is still on the screen %v after the turn's end:\n%s", cliTurn, driver.Excerpt(w.r.Screen(), 32))
		}
	}
}

// dialog submits scenario and returns when the CLI showed its permission
// dialog, judged waiting(permission): its moment is the screen's, or its
// own event's when Mew is told of it by hooks.
func (w *walk) dialog(scenario string) driver.Snap {
	w.t.Helper()
	return w.dialogAs(scenario, w.cli.dialog, session.ReasonPermission)
}

// dialogAs is dialog for a dialog drawn as re, judged waiting(reason).
func (w *walk) dialogAs(scenario string, re *regexp.Regexp, reason session.Reason) driver.Snap {
	w.t.Helper()
	sent := w.prompt(fakellm.Prompt(scenario))
	shown, err := w.r.WaitScreen(sent, re, cliTurn)
	if err != nil {
		w.t.Fatal(err)
	}
	if w.mode == modeHooks && w.cli.dialogUnannounced {
		// No hook announces its dialog (Cline: PreToolUse fires for every
		// call, before it decides to ask): with the pane unread Mew cannot
		// say waiting. It must still not say the turn is over: the call is
		// pending, working.
		w.expect("permission dialog, unannounced → working", shown.At, w.goal, stateIs(session.Working))
		w.never("permission dialog, unannounced: never done or idle", shown.At, shown.At.Add(settleAfter), func(sh session.Shown, listed bool) bool {
			return !listed || sh.State == session.Done || sh.State == session.Idle
		})
		return shown
	}
	ref := shown.At
	if w.mode != modeScreen && w.cli.dialogEvent != nil {
		if ev := w.observed(sent, "the dialog's event", w.cli.dialogEvent); w.mode == modeHooks || ev.Before(ref) {
			ref = ev
		}
	}
	w.expect(string(reason)+" dialog → waiting("+string(reason)+")", ref, w.goal, waitingFor(reason))
	return shown
}

// allow: waiting, then working while the allowed command and the reply
// run, then done.
func (w *walk) allow() {
	w.t.Helper()
	shown := w.dialog(or(w.cli.shellBrief, fakellm.ShellBrief))
	a, err := w.r.Answer(w.cli.dialog, shown.At, orKeys(w.cli.allowKeys, "Enter")...)
	if err != nil {
		w.t.Fatal(err)
	}
	ref := a.Gone
	if w.mode == modeHooks && w.cli.answeredEvent != nil {
		ref = w.observed(a.Pressed, "the CLI's first event after the answer", w.cli.answeredEvent)
		w.t.Logf("allowed: its first event after the answer came %v after the key", ref.Sub(a.Pressed).Round(time.Millisecond))
	}
	left := w.expect("allowed → not waiting", ref, w.goal, listedAndNot(session.Waiting))
	end := w.turnEnded(a.Pressed, or(w.cli.shellBrief, fakellm.ShellBrief), "the allowed turn's end")
	w.staysDone("the allowed turn", end)
	w.workingWhileAllowedRuns(left, a.Gone, end)
}

// deny: Esc on the dialog (and the agent's reject box, if it asks) → not
// waiting; idle, never working (the answer runs nothing), unless the agent
// sends the denial to the model, whose answer ends the turn; then the next
// turn → done, and stays done (not idle from the stop marker on screen).
func (w *walk) deny() {
	w.t.Helper()
	c := w.cli
	shown := w.dialog(or(c.shell, fakellm.Shell))
	a, err := w.r.Answer(c.dialog, shown.At, orKeys(c.denyKeys, "Escape")...)
	if err != nil {
		w.t.Fatal(err)
	}
	if c.rejectBox != nil {
		box, err := w.r.WaitScreen(shown.At, c.rejectBox, cliTurn)
		if err != nil {
			w.t.Fatal(err)
		}
		if a, err = w.r.Answer(c.rejectBox, box.At, "Enter"); err != nil {
			w.t.Fatal(err)
		}
	}
	w.t.Logf("denied: the dialog went %v after the key", a.Gone.Sub(a.Pressed).Round(time.Millisecond))
	w.expect("denied → not waiting", a.Gone, w.goal, listedAndNot(session.Waiting))
	switch {
	case c.denyGoesOn:
		w.staysDone("the turn the denial ended", w.turnEnded(a.Pressed, or(c.shell, fakellm.Shell), "the denied turn's end"))
	case c.denyRuns:
		over := w.observed(a.Pressed, "the CLI's end of the denied turn", c.denyEnd)
		w.expect("denied, the turn over → idle", over, w.goal, stateIs(session.Idle))
		w.never("denied: never done", a.Gone, over.Add(settleAfter), shows(session.Done))
	default:
		// Nothing runs after a denial: working would be a wrong guess
		// that the closed dialog started the answer's work (issue 35).
		w.expect("denied → idle", a.Gone, w.goal, stateIs(session.Idle))
		w.never("denied: never working or done", a.Gone, a.Gone.Add(settleAfter), func(sh session.Shown, listed bool) bool {
			return listed && (sh.State == session.Working || sh.State == session.Done)
		})
	}
	if c.denyEnd != nil && !c.denyRuns {
		w.observed(a.Pressed, "the CLI's end of the denied turn", c.denyEnd)
	}
	sent := w.prompt(fakellm.Prompt(w.text))
	w.staysDone("the turn after the denial", w.turnEnded(sent, w.text, "the turn after the denial"))
}

// escWhileStreaming: Esc while the reply streams → idle, never done on the
// way; the next turn → done, and stays done.
func (w *walk) escWhileStreaming() {
	w.t.Helper()
	c := w.cli
	sent := w.prompt(fakellm.Prompt(fakellm.Slow))
	shown := streaming
	if c.streams != nil {
		shown = c.streams
	}
	if _, err := w.r.WaitScreen(sent, shown, cliTurn); err != nil {
		w.t.Fatal(err)
	}
	if c.turnStart == nil {
		grokAsked(w.t, w.api, fakellm.Slow+"/0") // an Esc before the request stops nothing
	}
	// Mew left the turn before's done for this one before the Esc: what
	// is judged is the Esc's outcome, not a start seen late.
	w.expect("the streaming turn → working", w.started(sent, fakellm.Prompt(fakellm.Slow)), w.goal, stateIs(session.Working))
	var stopped driver.Snap
	esc := time.Now()
	switch {
	case c.stopped == nil:
		esc = w.press(orKeys(c.stop, "Escape")...)
		stopped.At = w.observed(esc, "the stopped turn's event", c.stopEvent)
	case len(c.stop) == 2:
		stopped = w.interruptTwice(c.stopped, c.stopHint)
	default:
		esc = w.press(c.stop...)
		var err error
		if stopped, err = w.r.WaitScreen(esc, c.stopped, cliTurn); err != nil {
			w.t.Fatal(err)
		}
	}
	w.t.Logf("Esc: the screen said stopped %v after the first key", stopped.At.Sub(esc).Round(time.Millisecond))
	w.expect("Esc while streaming → idle", stopped.At, w.goal, stateIs(session.Idle))
	w.never("Esc while streaming: never done on the way", esc, stopped.At.Add(settleAfter), shows(session.Done))
	if c.turnEnd != nil {
		// The CLI's own end of the stopped turn, if it reports one: a
		// prompt typed before it can be taken as part of that turn.
		w.r.WaitHook(esc, c.turnEnd, 5*time.Second)
	}
	sent = w.prompt(fakellm.Prompt(w.text))
	end := w.turnEnded(sent, w.text, "the turn after the Esc")
	if c.stopped != nil && !c.stopped.MatchString(w.r.Screen()) {
		w.t.Logf("the stop marker scrolled off before the turn ended")
	}
	w.staysDone("the turn after the Esc", end)
}

// apiError: an API error the CLI does not retry → failed, never done on
// the way.
func (w *walk) apiError() {
	w.t.Helper()
	c := w.cli
	sent := w.prompt(fakellm.Prompt(or(c.failure, fakellm.Error)))
	started := w.started(sent, fakellm.Prompt(or(c.failure, fakellm.Error)))
	snap, err := w.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		w.t.Fatal(err)
	}
	ref := snap.At
	if w.mode != modeScreen && c.errorEvent != nil {
		// The last attempt's (pi retries: a start and an error each).
		// Fire-and-forget on some CLIs (Qwen's StopFailure): the screen
		// is the reference when the driver's own hook did not report.
		last := started
		for _, h := range w.r.Hooks() {
			if h.At.After(last) && !h.At.After(snap.At) && c.turnStart(h) {
				last = h.At
			}
		}
		if e, err := w.r.WaitHook(last, c.errorEvent, 5*time.Second); err == nil && (w.mode == modeHooks || e.At.Before(ref)) {
			ref = e.At
		}
	}
	want := session.Failed
	if w.mode == modeHooks && c.hooksErrorIdle {
		want = session.Idle
	}
	w.expect("API error → "+string(want), ref, w.goal, stateIs(want))
	// From when Mew left the turn before's done for this one.
	left := w.r.WaitMew(started, w.goal, grace, listedAndNot(session.Done))
	w.never("API error: never done on the way", started.Add(left.Hi), ref.Add(settleAfter), shows(session.Done))
	// The error's line stays on the screen: the turn after it is done,
	// not failed again (Qwen's rule read it anywhere).
	sent = w.prompt(fakellm.Prompt(w.text))
	w.staysDone("the turn after the API error", w.turnEnded(sent, w.text, "the turn after the API error"))
}

// started is when the turn of prompt, submitted at sent, started: its
// start event or the stand-in's first request for it, the earlier (Qwen
// sent no UserPromptSubmit for a prompt typed after a stopped turn).
func (w *walk) started(sent time.Time, prompt string) time.Time {
	w.t.Helper()
	for deadline := time.Now().Add(cliTurn); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, h := range w.r.Hooks() {
			if w.cli.turnStart != nil && h.At.After(sent) && w.cli.turnStart(h) {
				return h.At
			}
		}
		if at, ok := w.askedAt(sent, prompt); ok {
			return at
		}
	}
	w.t.Fatalf("the turn of %q never started; screen:\n%s", prompt, driver.Excerpt(w.r.Screen(), 12))
	return time.Time{}
}

// exit quits the CLI its way and returns its moment.
func (w *walk) exit() time.Time {
	w.t.Helper()
	if w.cli.exit != nil {
		return w.cli.exit(w.agentScen)
	}
	return w.quit(w.cli.quit)
}

// killWhileWaiting: kill -9 of the agent (every process of it, not `mew
// run` around it) while its permission dialog waits → exited.
func (w *walk) killWhileWaiting() {
	w.t.Helper()
	w.dialog(or(w.cli.shell, fakellm.Shell))
	job := w.r.CLIPid()
	roots := []int{job}
	if len(w.r.Opts.Wrap) > 0 && filepath.Base(w.r.Opts.Wrap[0]) == filepath.Base(w.r.Opts.Mew) {
		roots = children(job) // under `mew run`: the agent is its child
	}
	var pids []int
	for _, p := range roots {
		pids = append(pids, descendants(p)...)
	}
	if len(pids) == 0 {
		w.t.Fatalf("no agent process under the pane's job %d", job)
	}
	at := time.Now()
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGKILL)
	}
	w.r.TL.Addf(at, "key", "kill -9 %v", pids)
	w.expect("kill -9 while waiting → exited", at, exit, exitedOrGone)
}

// children are pid's child processes (Linux /proc).
func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(s); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// descendants is pid and every process under it.
func descendants(pid int) []int {
	out := []int{pid}
	for _, c := range children(pid) {
		out = append(out, descendants(c)...)
	}
	return out
}

// conformEnd walks the end a mode's walk does not (the walk has one
// session, so it ends one way): a fresh pane and kill -9 on the first
// dialog, or a plain turn and the CLI's own quit.
func conformEnd(t *testing.T, c agentCLI, mode, end string) {
	w := startWalk(t, c, mode)
	w.fresh()
	switch end {
	case "exit":
		w.plainTurn()
		w.expect("quit → exited", w.exit(), exit, exitedOrGone)
	case "kill":
		w.killWhileWaiting()
	default:
		t.Fatalf("unknown end %q", end)
	}
}

func TestConformGeminiHooksPane(t *testing.T) { conformWalk(t, geminiCLI, modeHooksPane, "exit") }
func TestConformGeminiScreen(t *testing.T)    { conformWalk(t, geminiCLI, modeScreen, "kill") }
func TestConformGeminiHooks(t *testing.T)     { conformWalk(t, geminiCLI, modeHooks, "kill") }

func TestConformOpenCodeHooksPane(t *testing.T) { conformWalk(t, openCodeCLI, modeHooksPane, "exit") }
func TestConformOpenCodeScreen(t *testing.T)    { conformWalk(t, openCodeCLI, modeScreen, "kill") }
func TestConformOpenCodeHooks(t *testing.T)     { conformWalk(t, openCodeCLI, modeHooks, "kill") }

func TestConformQwenHooksPane(t *testing.T) { conformWalk(t, qwenCLI, modeHooksPane, "exit") }
func TestConformQwenHooks(t *testing.T)     { conformWalk(t, qwenCLI, modeHooks, "kill") }

func TestConformKiloHooksPane(t *testing.T) { conformWalk(t, kiloCLI, modeHooksPane, "exit") }
func TestConformKiloScreen(t *testing.T)    { conformWalk(t, kiloCLI, modeScreen, "kill") }
func TestConformKiloHooks(t *testing.T)     { conformWalk(t, kiloCLI, modeHooks, "kill") }

func TestConformClineHooksPane(t *testing.T) { conformWalk(t, clineCLI, modeHooksPane, "exit") }
func TestConformClineScreen(t *testing.T)    { conformWalk(t, clineCLI, modeScreen, "kill") }
func TestConformClineHooks(t *testing.T)     { conformWalk(t, clineCLI, modeHooks, "kill") }

func TestConformPiHooksPane(t *testing.T) { conformWalk(t, piCLI, modeHooksPane, "exit") }
func TestConformPiScreen(t *testing.T)    { conformWalk(t, piCLI, modeScreen, "kill") }
func TestConformPiHooks(t *testing.T)     { conformWalk(t, piCLI, modeHooks, "kill") }

func TestConformCopilotHooksPane(t *testing.T) { conformWalk(t, copilotCLI, modeHooksPane, "exit") }
func TestConformCopilotScreen(t *testing.T)    { conformWalk(t, copilotCLI, modeScreen, "kill") }
func TestConformCopilotHooks(t *testing.T)     { conformWalk(t, copilotCLI, modeHooks, "kill") }

func TestConformGrokScreen(t *testing.T) { conformWalk(t, grokCLI, modeScreen, "kill") }

// The other end of each walk above, in its own short session.
func TestConformGeminiHooksPaneKill(t *testing.T) { conformEnd(t, geminiCLI, modeHooksPane, "kill") }
func TestConformGeminiScreenExit(t *testing.T)    { conformEnd(t, geminiCLI, modeScreen, "exit") }
func TestConformGeminiHooksExit(t *testing.T)     { conformEnd(t, geminiCLI, modeHooks, "exit") }
func TestConformOpenCodeHooksPaneKill(t *testing.T) {
	conformEnd(t, openCodeCLI, modeHooksPane, "kill")
}
func TestConformOpenCodeScreenExit(t *testing.T)   { conformEnd(t, openCodeCLI, modeScreen, "exit") }
func TestConformOpenCodeHooksExit(t *testing.T)    { conformEnd(t, openCodeCLI, modeHooks, "exit") }
func TestConformQwenHooksPaneKill(t *testing.T)    { conformEnd(t, qwenCLI, modeHooksPane, "kill") }
func TestConformQwenScreenExit(t *testing.T)       { conformEnd(t, qwenCLI, modeScreen, "exit") }
func TestConformQwenHooksExit(t *testing.T)        { conformEnd(t, qwenCLI, modeHooks, "exit") }
func TestConformKiloHooksPaneKill(t *testing.T)    { conformEnd(t, kiloCLI, modeHooksPane, "kill") }
func TestConformKiloScreenExit(t *testing.T)       { conformEnd(t, kiloCLI, modeScreen, "exit") }
func TestConformKiloHooksExit(t *testing.T)        { conformEnd(t, kiloCLI, modeHooks, "exit") }
func TestConformClineHooksPaneKill(t *testing.T)   { conformEnd(t, clineCLI, modeHooksPane, "kill") }
func TestConformClineScreenExit(t *testing.T)      { conformEnd(t, clineCLI, modeScreen, "exit") }
func TestConformClineHooksExit(t *testing.T)       { conformEnd(t, clineCLI, modeHooks, "exit") }
func TestConformPiHooksPaneKill(t *testing.T)      { conformEnd(t, piCLI, modeHooksPane, "kill") }
func TestConformPiScreenExit(t *testing.T)         { conformEnd(t, piCLI, modeScreen, "exit") }
func TestConformPiHooksExit(t *testing.T)          { conformEnd(t, piCLI, modeHooks, "exit") }
func TestConformCopilotHooksPaneKill(t *testing.T) { conformEnd(t, copilotCLI, modeHooksPane, "kill") }
func TestConformCopilotScreenExit(t *testing.T)    { conformEnd(t, copilotCLI, modeScreen, "exit") }
func TestConformCopilotHooksExit(t *testing.T)     { conformEnd(t, copilotCLI, modeHooks, "exit") }
