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
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
)

// agentCLI is what a scenario needs to know of one CLI.
type agentCLI struct {
	name, version string
	find          func(string) (string, error)
	apiURL        func(*fakellm.Server) string
	dialog        *regexp.Regexp // its permission dialog
	apiError      *regexp.Regexp // an API error on its screen
	// turnEnd says whether an observed event ends a turn; dialogEvent
	// whether it announces the permission dialog.
	turnEnd, dialogEvent func(driver.HookSeen) bool
	quit                 []string // keys that make it exit when idle
}

var (
	openCodeCLI = agentCLI{
		name: driver.AgentOpenCode, version: driver.OpenCodeVersion, find: driver.FindOpenCode,
		apiURL:      func(s *fakellm.Server) string { return s.OpenAIURL },
		dialog:      regexp.MustCompile(`△ Permission required`),
		apiError:    regexp.MustCompile(`scripted bad request`),
		turnEnd:     func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "idle" },
		dialogEvent: func(h driver.HookSeen) bool { return h.Event == "permission.asked" },
		quit:        []string{"C-c"},
	}
	geminiCLI = agentCLI{
		name: driver.AgentGemini, version: driver.GeminiVersion, find: driver.FindGemini,
		apiURL:      func(s *fakellm.Server) string { return s.GeminiURL },
		dialog:      regexp.MustCompile(`Allow execution of`),
		apiError:    regexp.MustCompile(`✕ \[API Error`),
		turnEnd:     func(h driver.HookSeen) bool { return h.Event == "AfterAgent" },
		dialogEvent: func(h driver.HookSeen) bool { return h.Event == "Notification" && h.Kind == "ToolPermission" },
		quit:        []string{"C-c"},
	}
)

var (
	cliOnce sync.Map // agent → *cliSetup
)

type cliSetup struct {
	once         sync.Once
	program, mew string
	err          error
	skipWhy      string
}

func needCLI(t *testing.T, c agentCLI) *cliSetup {
	t.Helper()
	if os.Getenv("MEW_E2E") == "" {
		t.Skipf("end-to-end scenarios run with `make e2e` (MEW_E2E=1): they start the real %s", c.name)
	}
	v, _ := cliOnce.LoadOrStore(c.name, &cliSetup{})
	s := v.(*cliSetup)
	s.once.Do(func() {
		if _, err := driver.LookTmux(); err != nil {
			s.skipWhy = "tmux is not installed (apt-get install tmux)"
			return
		}
		p, err := c.find(c.version)
		if errors.Is(err, driver.ErrNoCLI) {
			s.skipWhy = fmt.Sprintf("the pinned %s %s: %v", c.name, c.version, err)
			return
		}
		if err != nil {
			s.err = err
			return
		}
		s.program = p
		if s.mew, s.err = testbin.Build("github.com/mew-dev/mew/cmd/mew"); s.err != nil {
			return
		}
		_, s.err = testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	})
	if s.skipWhy != "" {
		t.Skip(s.skipWhy)
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s
}

// agentScen is one scenario of an agent CLI.
type agentScen struct {
	*scen
	cli agentCLI
	api *fakellm.Server
}

func startCLI(t *testing.T, c agentCLI) *agentScen {
	t.Parallel()
	setup := needCLI(t, c)
	api, err := fakellm.Start(fakellm.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	r, err := driver.Launch(driver.Options{
		Agent: c.name, Program: setup.program, APIURL: c.apiURL(api), Dir: t.TempDir(), Mew: setup.mew, Install: true,
	})
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		api.Close()
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
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	return &agentScen{scen: &scen{t: t, r: r}, cli: c, api: api}
}

// observed waits for the CLI's own event after since.
func (s *agentScen) observed(since time.Time, what string, ok func(driver.HookSeen) bool) time.Time {
	s.t.Helper()
	h, err := s.r.WaitHook(since, ok, turn)
	if err != nil {
		s.t.Fatalf("%s: %v; screen:\n%s", what, err, driver.Excerpt(s.r.Screen(), 12))
	}
	return h.At
}

// earliest is the CLI's moment: the earlier of its own event and its
// screen showing the change (when screen is given and shows it).
func (s *agentScen) earliest(since, event time.Time, screen *regexp.Regexp) time.Time {
	if screen != nil {
		if snap, err := s.r.WaitScreen(since, screen, 2*time.Second); err == nil && snap.At.Before(event) {
			return snap.At
		}
	}
	return event
}

// dialogShown submits the shell scenario and returns when the CLI showed
// its permission dialog (its screen or its own event, the earlier).
func (s *agentScen) dialogShown() driver.Snap {
	s.t.Helper()
	sent := s.submit(fakellm.Prompt(fakellm.Shell))
	shown, err := s.r.WaitScreen(sent, s.cli.dialog, turn)
	if err != nil {
		s.t.Fatal(err)
	}
	ref := s.earliest(sent, s.observed(sent, "the dialog's event", s.cli.dialogEvent), nil)
	if shown.At.After(ref) {
		shown.At = ref
	}
	s.expect("permission dialog → waiting(permission)", shown.At, fast, waitingFor(session.ReasonPermission))
	return shown
}

// Plain turn → done; the CLI quits → exited.
func agentPlainTurnThenExit(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	sent := s.submit(fakellm.Prompt(fakellm.Text))
	end := s.earliest(sent, s.observed(sent, "the turn's end", c.turnEnd), nil)
	res := s.expect("plain turn ended → done", end, fast, stateIs(session.Done))
	if !res.Shown.HooksSeen || res.Shown.Agent != c.name {
		t.Errorf("Mew's %s session %+v: want its hooks (plugin) reporting, agent %q", c.name, res.Shown, c.name)
	}
	for _, k := range c.quit {
		s.press(k)
		time.Sleep(400 * time.Millisecond)
		if st, err := s.r.Tmux.Pane(); err == nil && st.Dead {
			break
		}
	}
	s.expect("quit → exited", s.paneDead(10*time.Second), exit, stateIs(session.Exited))
}

// Permission allowed → working → done.
func agentPermissionAllowed(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	shown := s.dialogShown()
	a, err := s.r.Answer(c.dialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("allowed → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	end := s.earliest(a.Pressed, s.observed(a.Pressed, "the turn's end", c.turnEnd), nil)
	s.expect("turn ended → done", end, fast, stateIs(session.Done))
	working := s.r.MewDuring(a.Gone, end, func(sh session.Shown, listed bool) bool { return listed && sh.State == session.Working })
	t.Logf("allowed → working: %d of %d samples between the answer and the turn's end showed working", len(working), s.r.SamplesIn(a.Gone, end))
	bad := s.r.MewDuring(a.Gone.Add(fast), end, func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Working
	})
	for _, b := range bad {
		sh, _ := b.Find(s.r.SessionID())
		t.Errorf("while the allowed command ran, Mew showed %s, want working", driver.ShownString(sh))
	}
	recordWindow(t.Name(), "allowed → working until the turn ends", len(bad) == 0, s.r.SamplesIn(a.Gone.Add(fast), end))
}

// Permission denied with Esc → not waiting (Gemini CLI fires no hook for
// it: the screen corrects the wait).
func agentPermissionDenied(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	shown := s.dialogShown()
	a, err := s.r.Answer(c.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("denied with Esc → not waiting", a.Gone, time.Second, listedAndNot(session.Waiting))
}

// The API answers an error the CLI does not retry → failed (Gemini CLI
// reports it as an ordinary AfterAgent: only its screen says it failed).
func agentAPIError(t *testing.T, c agentCLI) {
	s := startCLI(t, c)
	sent := s.submit(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, turn)
	if err != nil {
		t.Fatal(err)
	}
	ref := snap.At
	if c.name == driver.AgentOpenCode {
		ref = s.earliest(sent, s.observed(sent, "session.error", func(h driver.HookSeen) bool { return h.Event == "session.error" }), nil)
		if snap.At.Before(ref) {
			ref = snap.At
		}
	}
	s.expect("API error → failed", ref, fast, stateIs(session.Failed))
}

func TestOpenCodePlainTurnThenExit(t *testing.T) { agentPlainTurnThenExit(t, openCodeCLI) }
func TestOpenCodePermissionAllowed(t *testing.T) { agentPermissionAllowed(t, openCodeCLI) }
func TestOpenCodePermissionDenied(t *testing.T)  { agentPermissionDenied(t, openCodeCLI) }
func TestOpenCodeAPIError(t *testing.T)          { agentAPIError(t, openCodeCLI) }
func TestGeminiPlainTurnThenExit(t *testing.T)   { agentPlainTurnThenExit(t, geminiCLI) }
func TestGeminiPermissionAllowed(t *testing.T)   { agentPermissionAllowed(t, geminiCLI) }
func TestGeminiPermissionDenied(t *testing.T)    { agentPermissionDenied(t, geminiCLI) }
func TestGeminiAPIError(t *testing.T)            { agentAPIError(t, geminiCLI) }
