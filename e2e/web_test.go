package e2e

// The web board (`mew serve`) in a real, headless Chromium against the real
// CLIs: the browser pairs with the code `mew serve` prints, sees the
// session go waiting, and a person's press on a button answers it through
// the panel's path. Skipped, saying so, without chromium (browsertest).

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/internal/browsertest"
	"github.com/mew-dev/mew/session"
)

// webBoard is one `mew serve` for a scenario's home and a browser paired
// with it.
type webBoard struct {
	s    *scen
	b    *browsertest.Browser
	base string
}

var (
	boardLine = regexp.MustCompile(`^Mew's web board: (http://127\.0\.0\.1:\d+)/$`)
	pairLine  = regexp.MustCompile(`^pairing link: (\S+)$`)
)

// startWeb runs `mew serve` on a free loopback port in the run's home (the
// same tmux server and MEW_HOME as the scenario's CLI) and pairs a
// browser of viewport vp with it.
func (s *scen) startWeb(vp browsertest.Viewport) *webBoard {
	s.t.Helper()
	cmd := exec.Command(s.r.Opts.Mew, "serve", "--listen", "127.0.0.1:0")
	cmd.Env = s.r.Env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	s.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	w := &webBoard{s: s}
	link := ""
	deadline := time.After(20 * time.Second)
	for w.base == "" || link == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				s.t.Fatal("mew serve exited before it showed where it serves")
			}
			s.r.TL.Addf(time.Now(), "note", "mew serve: %s", l)
			if m := boardLine.FindStringSubmatch(l); m != nil {
				w.base = m[1]
			}
			if m := pairLine.FindStringSubmatch(l); m != nil {
				link = m[1]
			}
		case <-deadline:
			s.t.Fatal("mew serve did not show its address and pairing link within 20 s")
		}
	}
	go func() {
		for l := range lines {
			s.r.TL.Addf(time.Now(), "note", "mew serve: %s", l)
		}
	}()
	w.b = browsertest.Start(s.t, vp)
	w.b.Pair(link, "e2e "+s.t.Name())
	s.r.TL.Addf(time.Now(), "note", "the browser is paired with %s", w.base)
	return w
}

// shows waits for the session's row to show what a person needs to
// answer it: the project, waiting and the reason, and the button.
func (w *webBoard) shows(button string, want ...string) {
	w.s.t.Helper()
	w.b.WaitText(turn, append([]string{filepath.Base(w.s.r.Project), "waiting"}, want...)...)
	w.b.WaitButton(button, turn)
	w.b.Screenshot(browsertest.ScreenshotDir(), strings.ReplaceAll(w.s.t.Name(), "/", "-")+"-waiting")
	w.s.r.TL.Addf(time.Now(), "note", "the page shows the button %q", button)
}

// press presses the button as a person does and waits for the page's
// word on it: answered, or why not.
func (w *webBoard) press(button string) time.Time {
	w.s.t.Helper()
	at := w.b.Press(button)
	w.s.r.TL.Addf(at, "key", "pressed %q on the web page", button)
	deadline := time.Now().Add(turn)
	for {
		cls, _ := browsertest.Eval[string](w.b, `document.getElementById("msg").className`)
		msg, _ := browsertest.Eval[string](w.b, `document.getElementById("msg").innerText`)
		if cls == "msg ok" {
			w.s.r.TL.Addf(time.Now(), "note", "the page says: %s", msg)
			return at
		}
		if cls == "msg bad" {
			w.s.t.Fatalf("pressing %q: the page says %q", button, msg)
		}
		if time.Now().After(deadline) {
			w.s.t.Fatalf("pressing %q: no result on the page within %v; it shows:\n%s", button, turn, w.b.Text())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// goneAfter is when the dialog was first seen gone from the CLI's screen
// after since (the driver's own control client).
func (s *scen) goneAfter(dialog *regexp.Regexp, since time.Time) time.Time {
	s.t.Helper()
	for deadline := since.Add(turn); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if screen, err := s.r.Tmux.Capture(); err == nil && !dialog.MatchString(screen) {
			at := time.Now()
			s.r.TL.Addf(at, "screen", "the dialog is gone, %v after the press", at.Sub(since).Round(time.Millisecond))
			return at
		}
	}
	s.t.Fatalf("the dialog stayed on the screen after the press; screen:\n%s", s.r.Screen())
	return time.Time{}
}

// Claude Code's permission prompt approved on a phone-sized page: the
// command runs, the turn ends, the page shows it done.
func TestWebAnswerClaudeApproved(t *testing.T) {
	browsertest.Need(t)
	s := start(t, opts{})
	w := s.startWeb(browsertest.Phone)
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	s.dialogUp(sent, permissionPrompt)
	w.shows("Yes", "permission")
	if btn, _ := w.b.FindButton("Yes"); btn.H < 44 {
		t.Errorf("the Yes button is %.0f px high on a phone", btn.H)
	}
	pressed := w.press("Yes")
	s.goneAfter(permissionPrompt, pressed)
	s.expect("turn ended → done", s.turnEnd(pressed), fast, stateIs(session.Done))
	if !fileExists(filepath.Join(s.r.Project, "made-by-claude")) {
		t.Error("the Bash command did not run")
	}
	w.b.WaitText(turn, "done")
	if _, ok := w.b.FindButton("Yes"); ok {
		t.Error("the Yes button is still on the page after the answer")
	}
	w.b.Screenshot(browsertest.ScreenshotDir(), t.Name()+"-done")
}

// Claude Code's permission prompt denied from the page: not waiting, the
// command never ran.
func TestWebAnswerClaudeDenied(t *testing.T) {
	browsertest.Need(t)
	s := start(t, opts{})
	w := s.startWeb(browsertest.Desktop)
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	s.dialogUp(sent, permissionPrompt)
	w.shows("No", "permission")
	pressed := w.press("No")
	gone := s.goneAfter(permissionPrompt, pressed)
	s.expect("denied → not waiting", gone, fast, listedAndNot(session.Waiting))
	time.Sleep(time.Second)
	if fileExists(filepath.Join(s.r.Project, "made-by-claude")) {
		t.Error("the Bash command ran although the prompt was denied on the page")
	}
}

// Codex's approval approved from the page: the command runs, the turn
// ends.
func TestWebAnswerCodexApproved(t *testing.T) {
	browsertest.Need(t)
	s := startCodex(t, codexOpts{})
	w := s.startWeb(browsertest.Desktop)
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	if _, err := s.r.WaitScreen(sent, codexDialog, turn); err != nil {
		t.Fatal(err)
	}
	w.shows("Yes, proceed", "permission")
	pressed := w.press("Yes, proceed")
	gone := s.goneAfter(codexDialog, pressed)
	s.expect("approved → not waiting", gone, fast, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnOver(sent, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
	if !fileExists(filepath.Join(s.r.Project, fakeresponses.ShellCommand[len("touch "):])) {
		t.Error("the approved command did not run")
	}
	w.b.WaitText(turn, "done")
}

// Codex's approval denied from a phone-sized page: not waiting, the
// command never ran.
func TestWebAnswerCodexDenied(t *testing.T) {
	browsertest.Need(t)
	s := startCodex(t, codexOpts{})
	w := s.startWeb(browsertest.Phone)
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	if _, err := s.r.WaitScreen(sent, codexDialog, turn); err != nil {
		t.Fatal(err)
	}
	const no = "No, and tell Codex what to do differently"
	w.shows(no, "permission")
	pressed := w.press(no)
	gone := s.goneAfter(codexDialog, pressed)
	s.expect("denied → not waiting", gone, fast, listedAndNot(session.Waiting))
	time.Sleep(time.Second)
	if fileExists(filepath.Join(s.r.Project, fakeresponses.ShellCommand[len("touch "):])) {
		t.Error("the command ran although it was denied on the page")
	}
	w.b.Screenshot(browsertest.ScreenshotDir(), t.Name()+"-denied")
}
