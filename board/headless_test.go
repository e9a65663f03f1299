package board

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// A headless session (`claude -p`, an SDK app) that waits or is done never
// opens the panel, never rings and is not listed with the sessions that
// need you; attended ones next to it still do.
func TestHeadlessSessionsNeverNeedYou(t *testing.T) {
	b := New(DefaultConfig())
	b.Update(nil, t0) // alerts start after the first update
	headless := func(id string, st session.State) session.Shown {
		s := sh(id, st, 0, "/p/"+id)
		s.Headless = true
		return s
	}
	wait := headless("h1", session.Waiting)
	wait.Reason = session.ReasonPermission
	sessions := []session.Shown{headless("h0", session.Done), wait, headless("h2", session.Working)}
	v := b.Update(sessions, t0.Add(2*time.Second))
	if v.Open || len(v.Alerts) > 0 || len(v.Entered) > 0 {
		t.Fatalf("headless sessions opened the panel or rang: %+v", v)
	}
	if got := ids(v.Rows); !slices.Equal(got, []string{"h2"}) {
		t.Fatalf("rows %v, want only the working headless session", got)
	}
	all := Arrange(sessions, t0.Add(2*time.Second), Config{ShowQuiet: true})
	for _, r := range all {
		if r.NeedsYou() || (r.Session.ID != "h2" && r.Group != GroupQuiet) {
			t.Errorf("%s: group %d, needs you %v; want quiet, not needing you", r.Session.ID, r.Group, r.NeedsYou())
		}
	}
	// An attended session done at the same time still does.
	sessions = append(sessions, sh("a", session.Done, 2*time.Second, "/p/a"))
	v = b.Update(sessions, t0.Add(4*time.Second))
	if !v.Open || !slices.Equal(v.Entered, []string{"a"}) || len(v.Alerts) != 1 || v.Alerts[0].ID != "a" {
		t.Fatalf("the attended session: %+v", v)
	}
}
