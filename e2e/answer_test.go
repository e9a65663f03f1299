package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"testing"

	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// answerGoal is the product's goal for an answer: `mew answer` started →
// the dialog gone from the CLI's screen.
const answerGoal = 500 * time.Millisecond

// remoteAnswerGoal is the same over ssh: two connections (the remote's
// sessions, then its mew typing the answer), each a handshake and a mew
// start on the other side.
const remoteAnswerGoal = time.Second

func (s *scen) answerGoal() time.Duration {
	if s.r.MewEnv != nil {
		return remoteAnswerGoal
	}
	return answerGoal
}

// answerRun is one `mew answer`: its output and exit code, when it
// started, and when the dialog was first seen gone (zero if it was not).
type answerRun struct {
	stdout, stderr string
	code           int
	started        time.Time
	goneAt         time.Time
}

// took is the time from the command's start to the dialog gone.
func (a answerRun) took() time.Duration {
	if a.goneAt.IsZero() {
		return 0
	}
	return a.goneAt.Sub(a.started)
}

// mewAnswer runs `mew answer args…` in the run's home, reading its tmux
// server (the screen source), and notes when the dialog (when not nil)
// was first seen gone: the CLI's own moment of the answer.
func (s *scen) mewAnswer(dialog *regexp.Regexp, args ...string) answerRun {
	s.t.Helper()
	// The CLI itself can take over a second to redraw on a loaded
	// machine (four CLIs on two cores): the answer is judged by the dialog
	// going, with room beyond the 2 s default; the times are reported.
	cmd := exec.Command(s.r.Opts.Mew, append([]string{"answer", "--confirm", "8s"}, args...)...)
	env := s.r.Env
	if s.r.MewEnv != nil {
		env = s.r.MewEnv // a remote scenario answers from the other machine
	}
	cmd.Env = append(append([]string(nil), env...), "MEW_TMUX_SOCKET="+s.r.Tmux.Socket)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	var a answerRun
	a.started = time.Now()
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.r.TL.Addf(a.started, "key", "mew answer %s", strings.Join(args, " "))
	if dialog != nil {
		// The driver's own control client, read every 10 ms.
		for deadline := a.started.Add(turn); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if screen, err := s.r.Tmux.Capture(); err == nil && !dialog.MatchString(screen) {
				a.goneAt = time.Now()
				s.r.TL.Addf(a.goneAt, "screen", "the dialog is gone, %v after mew answer started", a.took().Round(time.Millisecond))
				break
			}
		}
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		a.code = ee.ExitCode()
	case err != nil:
		s.t.Fatal(err)
	}
	a.stdout, a.stderr = o.String(), e.String()
	s.r.TL.Addf(time.Now(), "note", "mew answer exited %d: %s%s", a.code, strings.TrimSpace(a.stdout), strings.TrimSpace(a.stderr))
	return a
}

// dialogUp waits for the dialog and then as long as a person takes at
// the quickest (the driver's settle: the CLI drops keys for ~0.1 s after
// a dialog appears), and returns when it showed.
func (s *scen) dialogUp(sent time.Time, dialog *regexp.Regexp) change {
	s.t.Helper()
	shown := s.cliChange(sent, dialog, "waiting")
	time.Sleep(time.Until(shown.screen.Add(300 * time.Millisecond)))
	return shown
}

// answered checks `mew answer`'s result and records its latency.
func (s *scen) answered(what string, a answerRun) {
	s.t.Helper()
	if a.code != 0 {
		s.t.Fatalf("%s: mew answer exited %d: %s%s", what, a.code, a.stdout, a.stderr)
	}
	gone := a.took()
	if gone == 0 {
		s.t.Fatalf("%s: the dialog stayed on the screen (mew answer said %q)", what, strings.TrimSpace(a.stdout))
	}
	// One answer's time includes the CLI's own redraw, which a loaded
	// machine stretches: it is reported, not judged, here; the goal is
	// judged over many answers (TestAnswerLatencyRealCLI, the benchmark).
	recordAnswer(s.t.Name(), what, gone, s.answerGoal())
	s.t.Logf("%s: dialog gone %v after `mew answer` started (goal p95 %v)", what, gone.Round(time.Millisecond), s.answerGoal())
}

func fileExists(path string) bool { _, err := os.Stat(path); return err == nil }

// Permission approved through `mew answer`: the Bash command runs and the
// turn ends (done).
func TestAnswerPermissionApproved(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	s.dialogUp(sent, permissionPrompt)
	id := s.r.SessionID()
	out, _, code := s.mewList(id)
	if code != 0 || !strings.Contains(out, "1  Yes\n") || !regexp.MustCompile(`(?m)^\d  No$`).MatchString(out) {
		t.Fatalf("mew answer %s: %d\n%s", id, code, out)
	}
	a := s.mewAnswer(permissionPrompt, id, "1")
	s.answered("permission approved", a)
	s.expect("turn ended → done", s.turnEnd(a.started), fast, stateIs(session.Done))
	if !fileExists(filepath.Join(s.r.Project, "made-by-claude")) {
		t.Error("the Bash command did not run")
	}
}

// Permission denied through `mew answer`: not waiting, the tool not run.
func TestAnswerPermissionDenied(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	s.dialogUp(sent, permissionPrompt)
	a := s.mewAnswer(permissionPrompt, s.r.SessionID(), "No")
	s.answered("permission denied", a)
	s.expect("denied → not waiting", a.goneAt, fast, listedAndNot(session.Waiting))
	time.Sleep(time.Second)
	if fileExists(filepath.Join(s.r.Project, "made-by-claude")) {
		t.Error("the Bash command ran although the prompt was denied")
	}
	for _, l := range s.api.Log() {
		if l.Why == fakeapi.Bash+"/1" {
			t.Errorf("the stand-in API was asked for the step after the tool: %+v", l)
		}
	}
}

// AskUserQuestion: option 2 picked through `mew answer` reaches the model.
func TestAnswerQuestionOption(t *testing.T) {
	s := start(t, opts{})
	results := make(chan string, 16)
	s.api.OnRequest(func(path string, body []byte) {
		if text := lastToolResult(body); text != "" {
			select {
			case results <- text:
			default:
			}
		}
	})
	sent := s.submit(fakeapi.Prompt(fakeapi.Ask))
	s.dialogUp(sent, questionDialog)
	out, _, _ := s.mewList(s.r.SessionID())
	if !strings.Contains(out, "1  React\n2  Vue\n") || strings.Contains(out, "Type something") {
		t.Fatalf("choices:\n%s", out)
	}
	a := s.mewAnswer(questionDialog, s.r.SessionID(), "2")
	s.answered("question option 2", a)
	select {
	case text := <-results:
		if !strings.Contains(text, "Vue") || strings.Contains(text, "React") {
			t.Errorf("the stand-in API got the answer %q, want option 2 (Vue)", text)
		}
		t.Logf("the stand-in API got: %s", text)
	case <-time.After(turn):
		t.Fatal("the stand-in API never got the answer")
	}
	s.expect("turn ended → done", s.turnEnd(a.started), fast, stateIs(session.Done))
}

// ExitPlanMode: the plan approved through `mew answer`.
func TestAnswerPlanApproved(t *testing.T) {
	s := start(t, opts{args: []string{"--permission-mode", "plan"}})
	sent := s.submit(fakeapi.Prompt(fakeapi.Plan))
	s.dialogUp(sent, planDialog)
	a := s.mewAnswer(planDialog, s.r.SessionID(), "1")
	s.answered("plan approved", a)
	s.expect("plan approved → not waiting", a.goneAt, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnEnd(a.started), fast, stateIs(session.Done))
}

// The person answered in the terminal a moment before: `mew answer` types
// nothing and says why.
func TestAnswerRefusedAfterTerminalAnswer(t *testing.T) {
	s := start(t, opts{})
	sent := s.submit(fakeapi.Prompt(fakeapi.Ask))
	shown := s.cliChange(sent, questionDialog, "waiting")
	if _, err := s.r.Answer(questionDialog, shown.screen, "Enter"); err != nil {
		t.Fatal(err)
	}
	// The dialog just left the screen; hooks and registry may still say
	// waiting.
	a := s.mewAnswer(nil, s.r.SessionID(), "2")
	stderr, code := a.stderr, a.code
	if code != 1 || !strings.Contains(stderr, "nothing typed") && !strings.Contains(stderr, "typed nothing") {
		t.Fatalf("mew answer after the terminal's answer: exit %d, %q", code, stderr)
	}
	t.Logf("mew answer refused: %s", strings.TrimSpace(stderr))
	s.turnEnd(sent)
	time.Sleep(500 * time.Millisecond)
	// The input box (and any prompt line) holds nothing but the prompt the
	// test submitted.
	for _, line := range strings.Split(s.r.Screen(), "\n") {
		rest, ok := strings.CutPrefix(line, "❯")
		if rest = strings.Trim(rest, " \u00a0"); ok && rest != "" && !strings.Contains(rest, "mew-e2e") {
			t.Errorf("something was typed into the input box: %q", line)
		}
	}
	for _, l := range s.api.Log() {
		if strings.HasPrefix(l.Why, "unscripted") {
			t.Errorf("the stand-in API got a prompt nobody typed: %+v", l)
		}
	}
}

// mewList runs `mew answer <id>`: the choices.
func (s *scen) mewList(id string) (string, string, int) {
	s.t.Helper()
	a := s.mewAnswer(nil, id)
	return a.stdout, a.stderr, a.code
}

// lastToolResult is the text of the tool results in a Messages API
// request's last message, "" when it has none.
func lastToolResult(body []byte) string {
	var req fakeapi.Request
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return ""
	}
	var out []string
	for _, b := range req.Messages[len(req.Messages)-1].Blocks() {
		if b.Type != "tool_result" {
			continue
		}
		var str string
		if json.Unmarshal(b.Content, &str) == nil {
			out = append(out, str)
			continue
		}
		var parts []fakeapi.Block
		json.Unmarshal(b.Content, &parts)
		for _, p := range parts {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

func recordAnswer(test, check string, gone, goal time.Duration) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	v := "ok"
	if gone > goal {
		v = "slow"
	}
	results = append(results, result{test: test, check: check + ": mew answer → dialog gone", verdict: v,
		lo: gone, hi: gone, note: fmt.Sprintf("goal p95 %v", goal)})
}

// TestAnswerLatencyRealCLI answers $MEW_E2E_ANSWERS permission prompts of
// one real Claude Code session through `mew answer` (one turn each) and
// prints the median and p95 of `mew answer` started → the dialog gone.
// It is the measurement behind README's "Measured" row, run by hand:
//
//	MEW_E2E_ANSWERS=20 make e2e E2E_RUN=TestAnswerLatencyRealCLI
func TestAnswerLatencyRealCLI(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MEW_E2E_ANSWERS"))
	if n <= 0 {
		t.Skip("set MEW_E2E_ANSWERS=20 to measure answers to the real CLI")
	}
	s := start(t, opts{})
	var lat []time.Duration
	for i := range n {
		sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
		s.dialogUp(sent, permissionPrompt)
		a := s.mewAnswer(permissionPrompt, "--json", s.r.SessionID(), "1")
		gone := a.took()
		if a.code != 0 || gone == 0 {
			t.Fatalf("answer %d: exit %d %s%s", i+1, a.code, a.stdout, a.stderr)
		}
		var res struct{ Started, Typed, Gone time.Time }
		json.Unmarshal([]byte(a.stdout), &res)
		t.Logf("answer %d: dialog gone %v after the command started; Mew typed %v after its start and saw the dialog gone %v after typing",
			i+1, gone.Round(time.Millisecond), res.Typed.Sub(res.Started).Round(time.Millisecond), res.Gone.Sub(res.Typed).Round(time.Millisecond))
		lat = append(lat, gone)
		s.turnEnd(sent)
	}
	slices.Sort(lat)
	p95 := lat[(len(lat)*95+99)/100-1]
	t.Logf("mew answer → dialog gone over %d answers: median %v, p95 %v, max %v (goal p95 ≤ %v)",
		n, lat[len(lat)/2].Round(time.Millisecond), p95.Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond), answerGoal)
	fmt.Printf("answer latency (real CLI, %d answers): median %d ms, p95 %d ms, max %d ms\n",
		n, lat[len(lat)/2].Milliseconds(), p95.Milliseconds(), lat[len(lat)-1].Milliseconds())
	if p95 > answerGoal {
		t.Errorf("p95 %v is over the %v goal", p95, answerGoal)
	}
}

// Codex's approval approved through `mew answer` (the option's shortcut,
// y): the command runs and the turn ends.
func TestCodexAnswerApproved(t *testing.T) {
	s := startCodex(t, codexOpts{})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(shown.At.Add(300 * time.Millisecond)))
	id := s.r.SessionID()
	out, _, code := s.mewList(id)
	if code != 0 || !strings.Contains(out, "1  Yes, proceed\n") || !strings.Contains(out, "3  No, and tell Codex what to do differently\n") {
		t.Fatalf("mew answer %s: %d\n%s", id, code, out)
	}
	a := s.mewAnswer(codexDialog, id, "1")
	s.answered("approval approved", a)
	s.expect("approved → not waiting", a.goneAt, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	if !fileExists(filepath.Join(s.r.Project, fakeresponses.ShellCommand[len("touch "):])) {
		t.Error("the approved command did not run")
	}
}
