package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// subagentPrompt is the permission dialog of the background subagent's Bash
// call (its command names the subagent's file).
var subagentPrompt = regexp.MustCompile(`(?s)made-by-subagent.*Do you want to proceed\?`)

// Two background subagents run at once and one asks permission (issue 35):
// waiting(permission) while its dialog shows, not waiting as soon as it is
// answered, then the person suspends the CLI (Ctrl-Z) and brings it back
// (fg), and the turn the subagents hand back to ends done.
func TestSubagentPermissionTwoInParallel(t *testing.T) {
	s := start(t, opts{observe: []string{"Stop", "PostToolUse", "PermissionRequest"}})
	sent := s.submit(fakeapi.Prompt(fakeapi.Agents2))
	shown := s.cliChange(sent, subagentPrompt, "")
	s.expect("subagent's dialog shown → waiting(permission)", shown.ref, fast, waitingFor(session.ReasonPermission))
	answered := s.answer(subagentPrompt, shown.screen, "Enter")
	s.expect("subagent's dialog answered → not waiting", answered, fast, listedAndNot(session.Waiting))
	// Suspend the CLI and bring it back while the other subagent still runs.
	s.press("C-z")
	if _, err := s.r.WaitScreen(answered, regexp.MustCompile(`mew-e2e\$ *$|Stopped|suspended`), turn); err != nil {
		t.Logf("no sign of the suspension on screen: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := s.r.Type("fg"); err != nil {
		t.Fatal(err)
	}
	fg := s.press("Enter")
	// Each subagent reports back in a turn of its own (a task
	// notification); the second one's end is the turn's end.
	last := s.nthReplyFinished("task-notification", 2)
	stop, err := s.r.WaitHook(last, func(h driver.HookSeen) bool { return h.Event == "Stop" }, turn)
	if err != nil {
		t.Fatal(err)
	}
	end := s.turnEnd(last)
	ref := end
	if stop.At.Before(ref) {
		ref = stop.At
	}
	t.Logf("fg %s; last Stop hook %s, registry idle %s", s.r.TL.Rel(fg), s.r.TL.Rel(stop.At), s.r.TL.Rel(end))
	s.expect("last subagent handed back after fg → done", ref, fast, stateIs(session.Done))
}

// nthReplyFinished waits until the stand-in API has finished n replies
// whose decision was why, and returns when the nth did.
func (s *scen) nthReplyFinished(why string, n int) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(turn)
	for time.Now().Before(deadline) {
		seen := 0
		for _, l := range s.api.Log() {
			if l.Why == why && l.Finished {
				if seen++; seen == n {
					s.r.TL.Addf(l.FinishedAt, "api", "reply %s #%d finished", why, n)
					return l.FinishedAt
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("the stand-in API never finished %d %s replies", n, why)
	return time.Time{}
}
