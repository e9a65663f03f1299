package e2e

// Codex's auto-review (approvals_reviewer = "auto_review", issue 24): Codex
// fires its PermissionRequest hook for every approval request, also those
// its reviewer model then approves or denies with nobody asked
// (openai/codex#28833). The stand-in is the reviewer (measured: the review
// is a Responses request of its own, a JSON verdict asked for; see
// fakeresponses.IsReview). Mew must show no wait and send no alert for
// such a call, and still show the wait when the person is asked after all.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/session"
)

// askProfile is a profile file of Codex's own ($CODEX_HOME/<name>.config.toml,
// chosen with --profile; Codex 0.169.0 refuses a profile key in config.toml)
// that hands approvals back to the person. The hook reads only config.toml's
// top level, so it still takes such a request for an auto-reviewed one:
// only the screen says the person is asked.
const askProfile = "ask"

// autoReviewSetup writes the auto-review line at the top of the run's
// config.toml (and the ask profile), after `mew install`.
func autoReviewSetup(o codexOpts) func(*driver.Run) error {
	if !o.autoReview {
		return nil
	}
	return func(r *driver.Run) error {
		p := filepath.Join(r.CodexHome, "config.toml")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, append([]byte("approvals_reviewer = \"auto_review\"\n"), b...), 0o600); err != nil {
			return err
		}
		if !o.askProfile {
			return nil
		}
		return os.WriteFile(filepath.Join(r.CodexHome, askProfile+".config.toml"), []byte("approvals_reviewer = \"user\"\n"), 0o600)
	}
}

func askProfileArgs(o codexOpts) []string {
	if !o.askProfile {
		return nil
	}
	return []string{"--profile", askProfile}
}

// The hooks a review scenario watches Codex fire, besides Mew's.
var reviewHooks = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "Stop"}

// startAlerts starts the run's sending Mew (see driver.Alerts).
func (s *scen) startAlerts() *driver.Alerts {
	s.t.Helper()
	a, err := s.r.StartAlerts()
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(a.Stop)
	return a
}

// reviewAsked waits for the stand-in to give the reviewer's verdict (why:
// "review/allow" or "review/deny") and returns when it was asked.
func reviewAsked(t *testing.T, api *fakeresponses.Server, why string) time.Time {
	t.Helper()
	deadline := time.Now().Add(turn)
	for time.Now().Before(deadline) {
		if i := slices.IndexFunc(api.Log(), func(l fakeresponses.Logged) bool { return l.Why == why }); i >= 0 {
			return api.Log()[i].At
		}
		time.Sleep(20 * time.Millisecond) // the stand-in's log has no event to wait on
	}
	t.Fatalf("Codex never asked its reviewer (%s); requests: %+v", why, api.Log())
	return time.Time{}
}

// permissionHook waits for Codex to fire PermissionRequest after since: the
// premise of these scenarios (a hook-only watcher would show a wait).
func (s *scen) permissionHook(since time.Time) time.Time {
	s.t.Helper()
	h, err := s.r.WaitHook(since, func(h driver.HookSeen) bool { return h.Event == "PermissionRequest" }, turn)
	if err != nil {
		s.t.Fatalf("Codex fired no PermissionRequest hook: %v", err)
	}
	return h.At
}

// noWaitingAlert fails the test for every waiting alert the sending Mew
// sent, and every alert for another session (the review's own thread was
// one: a second row, done), after checking it sent the turn's done: a
// sink that says nothing would prove nothing.
func (s *scen) noWaitingAlert(a *driver.Alerts) {
	s.t.Helper()
	id := s.r.SessionID()
	if _, _, err := a.Wait(func(m notify.Message) bool { return m.Event == session.Done && m.Session.ID == id }, 15*time.Second); err != nil {
		s.t.Errorf("the sending Mew sent no done for the turn: %v", err)
	}
	for _, m := range a.Sent() {
		switch {
		case m.Session.ID != id:
			s.t.Errorf("an alert for another session than the run's %s: %+v", id, m)
		case m.Event == session.Waiting:
			s.t.Errorf("an alert for a call nobody had to approve: %+v", m)
		}
	}
	s.t.Logf("alerts sent: %d", len(a.Sent()))
}

// dialogNeverShown fails the test if Codex drew its approval dialog after
// since: the person was asked, and the scenario tests nothing.
func (s *scen) dialogNeverShown(since time.Time) {
	s.t.Helper()
	for _, snap := range s.r.Screens() {
		if !snap.At.Before(since) && codexDialog.MatchString(snap.Text) {
			s.t.Fatalf("Codex asked the person after all; screen:\n%s", driver.Excerpt(snap.Text, 12))
		}
	}
}

// The reviewer approves: the call runs, nobody is asked, Mew shows working
// until the turn ends (never waiting), done then, and sends no alert but
// the done.
func TestCodexAutoReviewApproves(t *testing.T) {
	s, api := startCodexAPI(t, codexOpts{autoReview: true, observe: reviewHooks})
	alerts := s.startAlerts()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	asked := s.permissionHook(sent)
	reviewAsked(t, api, "review/allow")
	end := s.turnOver(sent, "task_complete", codexTurnEnd)
	t.Logf("PermissionRequest %v after the prompt; the turn ended %v after it", asked.Sub(sent).Round(time.Millisecond), end.Sub(asked).Round(time.Millisecond))
	s.expect("auto-approved, turn ended → done", end, fast, stateIs(session.Done))
	s.never("auto-approved call → never waiting", sent, end.Add(settleAfter), shows(session.Waiting))
	s.dialogNeverShown(sent)
	if _, err := os.Stat(filepath.Join(s.r.Project, "made-by-codex")); err != nil {
		t.Errorf("the approved call did not run: %v", err)
	}
	s.noWaitingAlert(alerts)
}

// The reviewer denies: Codex tells the model, not the person (measured:
// "✗ Request denied for codex to run …", no dialog; Codex has no way to
// hand a denied call to the person, openai/codex#21975). No wait, no
// alert but the done.
func TestCodexAutoReviewDenies(t *testing.T) {
	s, api := startCodexAPI(t, codexOpts{autoReview: true, observe: reviewHooks})
	alerts := s.startAlerts()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Denied))
	s.permissionHook(sent)
	reviewAsked(t, api, "review/deny")
	end := s.turnOver(sent, "task_complete", codexTurnEnd)
	s.expect("auto-denied, turn ended → done", end, fast, stateIs(session.Done))
	s.never("auto-denied call → never waiting", sent, end.Add(settleAfter), shows(session.Waiting))
	s.dialogNeverShown(sent)
	if _, err := os.Stat(filepath.Join(s.r.Project, "made-by-codex")); err == nil {
		t.Errorf("the denied call ran")
	}
	if !strings.Contains(s.r.Screen(), "denied") {
		t.Logf("the screen does not say the request was denied:\n%s", driver.Excerpt(s.r.Screen(), 12))
	}
	s.noWaitingAlert(alerts)
}

// config.toml says auto-review, but the person runs Codex with a profile
// whose reviewer is the person: the hook (reading config.toml only) takes
// the request for an auto-reviewed one, and the screen must show the wait
// once the dialog is drawn (goal 1 s: only the screen knows), with its
// alert; approved → not waiting, done.
func TestCodexAutoReviewProfileAsksThePerson(t *testing.T) {
	s, api := startCodexAPI(t, codexOpts{autoReview: true, askProfile: true, observe: reviewHooks})
	alerts := s.startAlerts()
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Shell))
	s.permissionHook(sent)
	shown, err := s.r.WaitScreen(sent, codexDialog, turn)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(api.Log(), func(l fakeresponses.Logged) bool { return strings.HasPrefix(l.Why, "review/") }) {
		t.Fatalf("Codex asked its reviewer although the profile's reviewer is the person: %+v", api.Log())
	}
	res := s.expect("dialog shown (hook said auto-reviewed) → waiting(permission)", shown.At, screenOnly, waitingFor(session.ReasonPermission))
	t.Logf("the wait was decided by %s (the hook's request counts as auto-reviewed: the screen's)", res.Shown.Source)
	id := s.r.SessionID()
	if _, at, err := alerts.Wait(func(m notify.Message) bool {
		return m.Event == session.Waiting && m.Reason == session.ReasonPermission && m.Session.ID == id
	}, 10*time.Second); err != nil {
		t.Errorf("no waiting alert for the dialog: %v", err)
	} else {
		t.Logf("waiting alert sent %v after the dialog was drawn", at.Sub(shown.At).Round(time.Millisecond))
	}
	a, err := s.r.Answer(codexDialog, shown.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("approved → not waiting", a.Gone, screenOnly, listedAndNot(session.Waiting))
	s.expect("turn ended → done", s.turnOver(a.Pressed, "task_complete", codexTurnEnd), fast, stateIs(session.Done))
}
