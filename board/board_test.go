package board

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func sh(id string, st session.State, since time.Duration, cwd string) session.Shown {
	return session.Shown{ID: id, State: st, Since: t0.Add(since), Cwd: cwd}
}

func ids(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Session.ID)
	}
	return out
}

func TestArrangeOrder(t *testing.T) {
	now := t0
	in := []session.Shown{
		sh("work-b", session.Working, -time.Minute, "/p/zeta"),
		sh("wait-new", session.Waiting, -10*time.Second, "/p/a"),
		sh("idle", session.Idle, -time.Hour, "/p/a"),
		sh("done-old", session.Done, -5*time.Minute, "/p/a"),
		sh("work-a", session.Working, -time.Second, "/p/Alpha"),
		sh("failed", session.Failed, -2*time.Minute, "/p/a"),
		sh("wait-old", session.Waiting, -3*time.Minute, "/p/a"),
		sh("exited", session.Exited, -time.Minute, "/p/a"),
		sh("done-new", session.Done, -30*time.Second, "/p/a"),
	}
	got := ids(Arrange(in, now, DefaultConfig()))
	want := []string{"wait-old", "wait-new", "done-old", "failed", "done-new", "work-a", "work-b"}
	if !slices.Equal(got, want) {
		t.Errorf("panel order:\n got %v\nwant %v", got, want)
	}

	cfg := DefaultConfig()
	cfg.ShowQuiet = true
	got = ids(Arrange(in, now, cfg))
	want = append(want, "idle", "exited")
	if !slices.Equal(got, want) {
		t.Errorf("order with quiet sessions:\n got %v\nwant %v", got, want)
	}
}

func TestArrangeLeavesOutBadIDs(t *testing.T) {
	in := []session.Shown{
		sh("ok", session.Waiting, -time.Minute, "/p/a"),
		sh("../etc", session.Waiting, -time.Minute, "/p/a"),
		sh("", session.Done, -time.Minute, "/p/a"),
		sh("ok", session.Done, -time.Minute, "/p/b"), // a duplicate: the first wins
	}
	rows := Arrange(in, t0, DefaultConfig())
	if got := ids(rows); !slices.Equal(got, []string{"ok"}) || rows[0].State != session.Waiting {
		t.Fatalf("rows = %v (%v), want just the first \"ok\"", got, rows)
	}
	if rows[0].Project != "a" {
		t.Errorf("project = %q, want the base name of the cwd", rows[0].Project)
	}
}

func TestArrangeSettles(t *testing.T) {
	cfg := DefaultConfig()
	cases := []struct {
		state      session.State
		age        time.Duration
		want       session.State
		wantReason session.Reason
	}{
		{session.Done, 200 * time.Millisecond, session.Working, ""}, // the CLI's done flash
		{session.Done, 999 * time.Millisecond, session.Working, ""},
		{session.Done, time.Second, session.Done, ""},
		{session.Failed, 500 * time.Millisecond, session.Working, ""},
		{session.Failed, 2 * time.Second, session.Failed, ""},
		{session.Waiting, 100 * time.Millisecond, session.Working, ""},
		{session.Waiting, 300 * time.Millisecond, session.Waiting, session.ReasonPlan},
		{session.Working, 0, session.Working, ""},
	}
	for _, c := range cases {
		s := sh("s1", c.state, -c.age, "/p/x")
		if c.state == session.Waiting {
			s.Reason = session.ReasonPlan
		}
		rows := Arrange([]session.Shown{s}, t0, cfg)
		if len(rows) != 1 || rows[0].State != c.want || rows[0].Reason != c.wantReason {
			t.Errorf("%s for %v: shown as %+v, want %s %q", c.state, c.age, rows, c.want, c.wantReason)
		}
	}
	// A needs-you state whose start is unknown is believed at once.
	rows := Arrange([]session.Shown{{ID: "s1", State: session.Done}}, t0, cfg)
	if rows[0].State != session.Done || rows[0].Age != 0 {
		t.Errorf("done with no Since: %+v", rows[0])
	}
}

// The panel's visibility follows the edges of the needs-you set.
func TestPanelEdges(t *testing.T) {
	type step struct {
		ids         []string
		close, show bool // the person's action before the update
		open        bool
		entered     []string
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"opens on a new id", []step{
			{ids: nil, open: false},
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
			{ids: []string{"a"}, open: true},
		}},
		{"stays closed after a manual close while polling", []step{
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
			{close: true, ids: []string{"a"}, open: false},
			{ids: []string{"a"}, open: false},
			{ids: []string{"a"}, open: false},
		}},
		{"reopens on a new id after a close", []step{
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
			{close: true, ids: []string{"a"}, open: false},
			{ids: []string{"a", "b"}, open: true, entered: []string{"b"}},
		}},
		{"an id that left and came back is new again", []step{
			{ids: []string{"a", "b"}, open: true, entered: []string{"a", "b"}},
			{close: true, ids: []string{"b"}, open: false},
			{ids: []string{"a", "b"}, open: true, entered: []string{"a"}},
		}},
		{"an id leaving does not reopen", []step{
			{ids: []string{"a", "b"}, open: true, entered: []string{"a", "b"}},
			{close: true, ids: []string{"a", "b"}, open: false},
			{ids: []string{"a"}, open: false},
		}},
		{"hides when the set empties", []step{
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
			{ids: []string{"a", "b"}, open: true, entered: []string{"b"}},
			{ids: nil, open: false},
			{ids: nil, open: false},
		}},
		{"a manual close ends with the set empty, then a new id opens", []step{
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
			{close: true, ids: nil, open: false},
			{ids: []string{"a"}, open: true, entered: []string{"a"}},
		}},
		{"opened by the person stays open with nothing to show", []step{
			{ids: nil, open: false},
			{show: true, ids: nil, open: true},
			{ids: nil, open: true},
			{close: true, ids: nil, open: false},
		}},
		{"duplicates count once", []step{
			{ids: []string{"a", "a"}, open: true, entered: []string{"a"}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p Panel
			for i, s := range c.steps {
				if s.close {
					p.Close()
				}
				if s.show {
					p.Show()
				}
				entered := p.Update(s.ids)
				if p.IsOpen() != s.open || !slices.Equal(entered, s.entered) {
					t.Fatalf("step %d (%v): open=%v entered=%v, want open=%v entered=%v",
						i, s.ids, p.IsOpen(), entered, s.open, s.entered)
				}
			}
		})
	}
}

// The board drives the panel from settled states only.
func TestBoardOpensOnSettledStates(t *testing.T) {
	b := New(DefaultConfig())
	sessions := []session.Shown{sh("a", session.Working, 0, "/p/a")}
	if v := b.Update(sessions, t0); v.Open || v.Opened {
		t.Fatalf("nothing needs you, but the panel is open: %+v", v)
	}
	sessions[0] = sh("a", session.Done, 0, "/p/a")
	if v := b.Update(sessions, t0.Add(500*time.Millisecond)); v.Open {
		t.Fatalf("done for 0.5 s opened the panel")
	}
	v := b.Update(sessions, t0.Add(time.Second))
	if !v.Open || !v.Opened || !slices.Equal(v.Entered, []string{"a"}) {
		t.Fatalf("done for 1 s: %+v", v)
	}
	if v := b.Update(sessions, t0.Add(2*time.Second)); !v.Open || v.Opened {
		t.Fatalf("the next poll: open=%v opened=%v, want open and no new edge", v.Open, v.Opened)
	}
	b.Close()
	if v := b.Update(sessions, t0.Add(3*time.Second)); v.Open {
		t.Fatalf("polling reopened a closed panel")
	}
	sessions = append(sessions, sh("b", session.Waiting, 3*time.Second, "/p/b"))
	if v := b.Update(sessions, t0.Add(4*time.Second)); !v.Open || !v.Opened {
		t.Fatalf("a new waiting session did not reopen the panel")
	}
	sessions = []session.Shown{sh("a", session.Working, 5*time.Second, "/p/a"), sh("b", session.Working, 5*time.Second, "/p/b")}
	if v := b.Update(sessions, t0.Add(5*time.Second)); v.Open {
		t.Fatalf("nothing needs you any more, but the panel stays open")
	}
}

func TestAlerts(t *testing.T) {
	b := New(DefaultConfig())
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	wait := func(since time.Duration, r session.Reason) session.Shown {
		s := sh("a", session.Waiting, since, "/p/proj")
		s.Reason = r
		return s
	}
	steps := []struct {
		now  time.Duration
		s    session.Shown
		want []string // "state/reason/sound"
	}{
		{0, sh("a", session.Working, 0, "/p/proj"), nil},
		{5 * time.Second, wait(5*time.Second, session.ReasonPermission), nil}, // not settled yet
		{5*time.Second + 300*time.Millisecond, wait(5*time.Second, session.ReasonPermission), []string{"waiting/permission/Ping"}},
		{6 * time.Second, wait(5*time.Second, session.ReasonPermission), nil}, // the same state again: no edge
		{8 * time.Second, sh("a", session.Working, 8*time.Second, "/p/proj"), nil},
		{10 * time.Second, wait(9*time.Second, session.ReasonQuestion), nil},                         // waiting again inside the cooldown
		{12 * time.Second, sh("a", session.Done, 11*time.Second, "/p/proj"), []string{"done//Hero"}}, // another state has its own cooldown
		{20 * time.Second, sh("a", session.Working, 20*time.Second, "/p/proj"), nil},
		{36 * time.Second, wait(35*time.Second, session.ReasonPlan), []string{"waiting/plan/Glass"}}, // 30.7 s after the last waiting alert
		{40 * time.Second, sh("a", session.Failed, 38*time.Second, "/p/proj"), []string{"failed//Basso"}},
	}
	for i, s := range steps {
		v := b.Update([]session.Shown{s.s}, at(s.now))
		var got []string
		for _, a := range v.Alerts {
			got = append(got, string(a.State)+"/"+string(a.Reason)+"/"+a.Sound)
			if a.ID != "a" || a.Project != "proj" {
				t.Errorf("alert names %q %q", a.ID, a.Project)
			}
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("step %d at %v (%s %s): alerts %v, want %v", i, s.now, s.s.State, s.s.Reason, got, s.want)
		}
	}
}

func TestAlertsQuietOnStart(t *testing.T) {
	b := New(DefaultConfig())
	s := []session.Shown{sh("a", session.Waiting, -time.Minute, "/p/a")}
	v := b.Update(s, t0)
	if len(v.Alerts) != 0 {
		t.Errorf("the first update rang for a session that was already waiting: %v", v.Alerts)
	}
	if !v.Open {
		t.Errorf("the panel did not open for a waiting session at start")
	}
	s = append(s, sh("b", session.Done, -time.Minute, "/p/b"))
	if v := b.Update(s, t0.Add(time.Second)); len(v.Alerts) != 1 || v.Alerts[0].ID != "b" {
		t.Errorf("a session seen later did not ring: %v", v.Alerts)
	}
}

func TestAlertsUrgentFirst(t *testing.T) {
	b := New(DefaultConfig())
	b.Update(nil, t0)
	s := []session.Shown{sh("d", session.Done, -time.Minute, "/p/d"), sh("w", session.Waiting, -time.Second, "/p/w")}
	v := b.Update(s, t0)
	if len(v.Alerts) != 2 || v.Alerts[0].ID != "w" || v.Alerts[0].Sound != "Pop" {
		t.Errorf("alerts = %+v, want the waiting one (input, Pop) first", v.Alerts)
	}
}

func TestSoundFor(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range []struct {
		st session.State
		r  session.Reason
	}{
		{session.Waiting, session.ReasonPermission}, {session.Waiting, session.ReasonQuestion},
		{session.Waiting, session.ReasonPlan}, {session.Waiting, session.ReasonInput},
		{session.Done, ""}, {session.Failed, ""},
	} {
		s := SoundFor(c.st, c.r)
		if s == "" || seen[s] {
			t.Errorf("%s/%s: sound %q (empty or shared)", c.st, c.r, s)
		}
		seen[s] = true
	}
	if SoundFor(session.Waiting, "something-new") != SoundFor(session.Waiting, session.ReasonInput) {
		t.Errorf("an unknown reason should sound like input")
	}
	if SoundFor(session.Working, "") != "" || SoundFor(session.Exited, "") != "" {
		t.Errorf("working and exited must be silent")
	}
}

func TestFormatAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 0: "0s", 59 * time.Second: "59s", time.Minute: "1m",
		90 * time.Minute: "1h", 47 * time.Hour: "47h", 72 * time.Hour: "3d",
	} {
		if got := FormatAge(d); got != want {
			t.Errorf("FormatAge(%v) = %q, want %q", d, got, want)
		}
	}
}
