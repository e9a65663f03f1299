package e2e

// The real Amp CLI (driver.AmpVersion) against e2e/fakeamp, a stand-in of
// Amp's own server: under `mew install` (Mew's plugin), in a plain tmux
// pane with no install (the screen alone), and under `mew run`. Amp's
// plugin API says nothing when its approval dialog is drawn or answered:
// only the screen does (goal 1 s there, 0.5 s where the plugin reports).

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeamp"
	"github.com/mew-dev/mew/session"
)

var (
	// At the left edge: a reply quoting the dialog is drawn a column in.
	ampDialog    = regexp.MustCompile(`(?m)^╭─ Approval Required`)
	ampReply     = regexp.MustCompile(`Hello from the fake Amp server`)
	ampDone      = regexp.MustCompile(`(?m)^ Done\.`)
	ampRejected  = regexp.MustCompile(`The command was rejected`)
	ampStreaming = regexp.MustCompile(`╰ \S+ Streaming`)
	ampIdleBox   = regexp.MustCompile(`(?m)^╰─+.*─╯\s*$`)
	ampExited    = regexp.MustCompile(`amp threads continue`)
)

// screenOnly is the goal where only the screen knows.
const screenOnly = time.Second

type ampScen struct {
	*scen
	api *fakeamp.Server
}

type ampOpts struct {
	noInstall, run bool
	// link starts Amp by the link an npm global install makes
	// (<prefix>/bin/amp → ../lib/node_modules/@ampcode/cli/bin/amp.exe),
	// under `env VAR=…`; unread hides the run's tmux server from Mew (the
	// plugin alone reports).
	link, unread bool
}

func startAmp(t *testing.T, o ampOpts) *ampScen {
	t.Parallel()
	b := needCLIBinaries(t, "Amp CLI", driver.AmpVersion, driver.FindAmp, driver.ErrNoCLI, nil)
	api, err := fakeamp.Start()
	if err != nil {
		t.Fatal(err)
	}
	program, wrap := b.program, runWrap(o.run, b.mew)
	if o.link {
		program, wrap = npmGlobalLink(t, b.program, "@ampcode/cli/bin/amp.exe", "amp"), []string{"env", "MEW_E2E_LAUNCHER=env"}
	}
	r, err := driver.Launch(driver.Options{Agent: driver.AgentAmp, Program: program, APIURL: api.URL, Dir: t.TempDir(),
		Mew: b.mew, Install: !o.noInstall, Wrap: wrap,
		Setup: func(r *driver.Run) error {
			if o.unread {
				r.MewEnv = append(append([]string(nil), r.Env...), "MEW_TMUX_SOCKET="+filepath.Join(r.Home, "no-tmux.sock"))
			}
			if !o.noInstall {
				return nil
			}
			// Without Mew's plugin Mew's row is the pane's (or mew run's),
			// not the thread's: no observer naming the thread either.
			return os.Remove(filepath.Join(r.Home, ".config", "amp", "plugins", "driver-observer.ts"))
		}})
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		dumpScreens(t, r)
		d := driver.SampleDurations(r.Samples())
		t.Logf("mew status --json: %d samples, median %v, p95 %v", d.N, d.Median.Round(time.Millisecond), d.P95.Round(time.Millisecond))
		recordDurations(t.Name(), d)
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			for _, e := range api.Events() {
				r.TL.Addf(e.At, "api", "%s", e.What)
			}
			t.Logf("timeline:\n%s", r.TL.String())
		}
	})
	if err := r.WaitReady(2 * ready); err != nil {
		t.Fatal(err)
	}
	return &ampScen{scen: &scen{t: t, r: r}, api: api}
}

// serverSaw is when the stand-in first noted what after since.
func (s *ampScen) serverSaw(since time.Time, what string, timeout time.Duration) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, e := range s.api.Events() {
			if !e.At.Before(since) && strings.HasPrefix(e.What, what) {
				return e.At
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("the server never saw %q; screen:\n%s", what, driver.Excerpt(s.r.Screen(), 14))
	return time.Time{}
}

// turnEnded is Amp's own moment a turn ended: the server's idle after
// since, or the screen's reply, whichever came first.
func (s *ampScen) turnEnded(since time.Time, reply *regexp.Regexp) time.Time {
	s.t.Helper()
	idle := s.serverSaw(since, "state idle", turn)
	snap, err := s.r.WaitScreen(since, reply, turn)
	if err != nil {
		s.t.Fatal(err)
	}
	// The border loses its status word when the TUI has taken the idle.
	if box, err := s.r.WaitScreen(snap.At, ampIdleBox, turn); err == nil && box.At.After(idle) {
		return box.At
	}
	return idle
}

func (s *ampScen) dialog(sent time.Time) driver.Snap {
	s.t.Helper()
	shown, err := s.r.WaitScreen(sent, ampDialog, turn)
	if err != nil {
		s.t.Fatal(err)
	}
	s.expect("approval dialog → waiting(permission)", shown.At, screenOnly, waitingFor(session.ReasonPermission))
	return shown
}

// ampSession runs the whole sequence: a plain turn, an approval allowed,
// one rejected, Esc Esc on a running turn, exit.
func ampSession(t *testing.T, o ampOpts) {
	s := startAmp(t, o)
	sent := s.submit("hello mew-plain")
	end := s.turnEnded(sent, ampReply)
	goal := fast
	if o.noInstall {
		goal = screenOnly
	}
	res := s.expect("plain turn ended → done", end, goal, stateIs(session.Done))
	if !o.noInstall && !o.run {
		s.hooksReported(end, session.AgentAmp, "Mew's plugin")
	}
	if res.Shown.Agent != session.AgentAmp {
		t.Errorf("agent %q, want amp", res.Shown.Agent)
	}

	sent = s.submit("please mew-bash now")
	shown := s.dialog(sent)
	allowed := s.answer(ampDialog, shown.At, "Enter")
	s.expect("allowed → not waiting", allowed, screenOnly, listedAndNot(session.Waiting))
	// The server's side is looked for from the dialog's showing: on a
	// loaded machine Amp redraws late (1.4 s after the key seen), after
	// its server went idle.
	s.serverSaw(shown.At, "tool ran", turn)
	s.expect("turn ended → done", s.turnEnded(shown.At, ampDone), goal, stateIs(session.Done))

	sent = s.submit("again mew-bash please")
	shown = s.dialog(sent)
	rejected := s.answer(ampDialog, shown.At, "Escape")
	s.expect("rejected → not waiting", rejected, screenOnly, listedAndNot(session.Waiting))
	// Amp's turn goes on after a rejection (the model is told, its reply
	// ends the turn, the plugin's agent.end says done): done, as allowed.
	s.expect("rejected, the turn went on → done", s.turnEnded(shown.At, ampRejected), goal, stateIs(session.Done))

	sent = s.submit("take it mew-slow")
	if _, err := s.r.WaitScreen(sent, ampStreaming, turn); err != nil {
		t.Fatal(err)
	}
	esc := s.press("Escape")
	time.Sleep(300 * time.Millisecond)
	s.press("Escape")
	cancelled := s.serverSaw(esc, "cancel", turn)
	s.serverSaw(cancelled, "state idle", turn)
	idle, err := s.r.WaitScreen(cancelled, ampIdleBox, turn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("Esc Esc → idle", idle.At, goal, stateIs(session.Idle))

	s.press("C-c")
	time.Sleep(400 * time.Millisecond)
	s.press("C-c")
	var gone time.Time
	if o.run {
		gone = s.paneDead(15 * time.Second)
	} else {
		snap, err := s.r.WaitScreen(esc, ampExited, 15*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		gone = snap.At
	}
	s.expect("exit → exited", gone, exit, exitedOrGone)
}

func TestAmpUnderInstall(t *testing.T) { ampSession(t, ampOpts{}) }

// Screen only, a turn can end before a read sees it run (issue 24): after
// an answer (the dialog's own frames show it running: the status word in
// the input box's border below it), or after the bare prompt Amp draws
// mid-turn (its reply below the prompt says it ran: turn_end).
func TestAmpPlainPane(t *testing.T) { ampSession(t, ampOpts{noInstall: true}) }

func TestAmpUnderMewRun(t *testing.T) { ampSession(t, ampOpts{noInstall: true, run: true}) }

func TestAmpAnswerAllows(t *testing.T) {
	s := startAmp(t, ampOpts{})
	sent := s.submit("please mew-bash now")
	shown := s.dialog(sent)
	time.Sleep(time.Until(shown.At.Add(300 * time.Millisecond)))
	id := s.r.SessionID()
	out, _, code := s.mewList(id)
	if code != 0 || !strings.Contains(out, "Allow Once") {
		t.Fatalf("mew answer %s: %d\n%s", id, code, out)
	}
	a := s.mewAnswer(ampDialog, id, "1")
	s.answered("approval allowed", a)
	s.serverSaw(a.started, "tool ran", turn)
	if _, err := os.Stat(filepath.Join(s.r.Project, "mew-probe-dir")); err == nil {
		t.Error("the probe folder is still there: the command did not run")
	}
}
