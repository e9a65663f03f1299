package e2e

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// Without `mew install`: a turn of 0.1–0.4 s (the stand-in replies at
// once) can leave Claude Code 2.1.328's registry file as it was, idle
// before and after, nothing rewritten (about 1 turn in 3; on a session's
// first turn Mew showed idle, on a later one the previous turn's done).
// The transcript the registry names still gets the reply: every turn
// reads done, and done since the turn began (a new done, not the last
// one's). With the pane read, and without.
func TestNoInstallShortTurnsDone(t *testing.T) {
	shortTurnsDone(t, start(t, opts{noInstall: true}), "screen+registry")
}

func TestNoInstallShortTurnsDoneNoScreen(t *testing.T) {
	shortTurnsDone(t, startUnseen(t), "registry")
}

// shortTurns is how many short turns a session runs: enough to meet the
// turn with no busy most runs (the test cannot make the CLI skip it).
const shortTurns = 8

func shortTurnsDone(t *testing.T, s *scen, mode string) {
	noBusy := 0
	for i := range shortTurns {
		p := fmt.Sprintf("short %d %s", i, fakeapi.Prompt(fakeapi.Text))
		sent := s.submit(p)
		end := s.turnDone(sent, p)
		if _, err := s.r.WaitRegistry(sent, driver.Status("busy"), time.Millisecond); err != nil {
			noBusy++
			t.Logf("turn %d: the registry wrote no busy", i)
		}
		s.expect(fmt.Sprintf("%s: short turn %d → done", mode, i), end, fast, func(sh session.Shown, listed bool) bool {
			return listed && sh.State == session.Done && !sh.Since.Before(sent)
		})
	}
	t.Logf("%d of %d short turns left the registry idle throughout", noBusy, shortTurns)
}

// A resumed session draws its old turns (their replies and finished-turn
// lines) and its transcript ends with their reply: it is idle, never done,
// until a turn runs in it (those replies predate its registry's idle).
func TestNoInstallResumedNotDone(t *testing.T) {
	s := start(t, opts{noInstall: true})
	p := fakeapi.Prompt(fakeapi.Text)
	sent := s.submit(p)
	s.expect("first run: turn ended → done", s.turnDone(sent, p), fast, stateIs(session.Done))
	id := s.r.SessionID()
	s.submit("/exit")
	if _, ok := s.paneDeadBy(time.Now().Add(gone)); !ok {
		t.Fatalf("the CLI did not exit within %v of /exit", gone)
	}
	typed, err := s.r.TypeCommand(s.r.Opts.Claude, "--permission-mode", "default", "--resume", id)
	if err != nil {
		t.Fatal(err)
	}
	idle, err := s.r.WaitRegistry(typed, driver.Status("idle"), ready)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.r.SessionID(); got != id {
		t.Fatalf("the resumed CLI writes session %s, not %s", got, id)
	}
	old, err := s.r.WaitScreen(typed, regexp.MustCompile(`Hello from the scripted model`), ready)
	if err != nil {
		t.Fatal(err)
	}
	from := laterOf(idle.At, old.At)
	s.expect("resumed, its old turn drawn → idle", from, fast, stateIs(session.Idle))
	s.never("resumed: never done before a turn", from.Add(fast), from.Add(settleAfter), shows(session.Done))

	p = "again " + fakeapi.Prompt(fakeapi.Text)
	sent = s.submit(p)
	s.expect("resumed: turn ended → done", s.turnDone(sent, p), fast, func(sh session.Shown, listed bool) bool {
		return listed && sh.State == session.Done && !sh.Since.Before(sent)
	})
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
