package app

import (
	"reflect"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func shown(id string, st session.State, since time.Time, cwd string) session.Shown {
	s := session.Shown{ID: id, Agent: "claude", State: st, Since: since, Cwd: cwd}
	if st == session.Waiting {
		s.Reason = session.ReasonPermission
		s.Tool, s.ToolDetail = "Bash", "rm -rf build"
	}
	return s
}

func TestShouldTick(t *testing.T) {
	for _, c := range []struct {
		shown, occluded, want bool
	}{
		{true, false, true},
		{true, true, false},
		{false, false, false},
		{false, true, false},
	} {
		if got := shouldTick(c.shown, c.occluded); got != c.want {
			t.Errorf("ShouldTick(shown=%v, occluded=%v) = %v, want %v", c.shown, c.occluded, got, c.want)
		}
	}
}

// A wait opens the panel once it settles, through the recheck the
// controller asks for while the timer is stopped, and rings then.
func TestWaitOpensPanelAfterSettle(t *testing.T) {
	cfg := board.DefaultConfig()
	c := newController(cfg)
	e := c.SetSessions([]session.Shown{shown("w1", session.Working, t0, "/p/alpha")}, 0, t0)
	if e.Show || e.Tick || e.Recheck != 0 {
		t.Fatalf("working only: %+v", e)
	}
	if e.Icon == nil || e.Icon.Attention {
		t.Fatalf("first update must report the quiet icon, got %+v", e.Icon)
	}

	at := t0.Add(2 * time.Second)
	wait := []session.Shown{shown("w1", session.Waiting, at, "/p/alpha")}
	e = c.SetSessions(wait, 0, at.Add(100*time.Millisecond))
	if e.Show || e.Tick || len(e.Alerts) > 0 {
		t.Fatalf("an unsettled wait must not open or ring: %+v", e)
	}
	want := cfg.WaitingSettle - 100*time.Millisecond + recheckSlack
	if e.Recheck != want {
		t.Fatalf("recheck = %v, want %v", e.Recheck, want)
	}
	if e.Icon != nil {
		t.Fatalf("the icon must not change before the wait settles: %+v", e.Icon)
	}

	e = c.Recheck(at.Add(100*time.Millisecond + e.Recheck))
	if !e.Show || !e.Resize || !e.Redraw || !e.Tick || e.Recheck != 0 {
		t.Fatalf("settled wait: want show, resize, redraw, tick; got %+v", e)
	}
	if len(e.Alerts) != 1 || e.Alerts[0].Sound != "Ping" {
		t.Fatalf("alerts = %+v, want one Ping", e.Alerts)
	}
	if e.Icon == nil || !e.Icon.Attention || e.Icon.Title != "1" {
		t.Fatalf("icon = %+v, want attention with count 1", e.Icon)
	}
	f, ok := c.Frame()
	if !ok || f.W != board.Width || f.H != board.Height(1) {
		t.Fatalf("frame %dx%d ok=%v, want %dx%d", f.W, f.H, ok, board.Width, board.Height(1))
	}
}

// The timer redraws exactly the ticks whose picture changed.
func TestTickRedrawsOnlyChangedFrames(t *testing.T) {
	c := newController(board.DefaultConfig())
	sessions := []session.Shown{
		shown("w1", session.Waiting, t0.Add(-time.Minute), "/p/alpha"),
		shown("k1", session.Working, t0.Add(-time.Minute), "/p/beta"),
	}
	c.SetSessions(sessions, 0, t0)
	e := c.Recheck(t0) // the first update only learns; both have settled
	if !c.PanelShown() {
		t.Fatalf("panel not shown: %+v", e)
	}
	prev, _ := c.Frame()
	prev = cloneFrame(prev)
	redraws, same := 0, 0
	for i := 1; i <= 200; i++ {
		now := t0.Add(time.Duration(i) * board.TickInterval)
		e := c.Tick(now)
		cur, _ := c.Frame()
		changed := !reflect.DeepEqual(prev.Rects, cur.Rects) || !reflect.DeepEqual(prev.Texts, cur.Texts)
		if e.Redraw != changed {
			t.Fatalf("tick %d: redraw=%v but the picture changed=%v", i, e.Redraw, changed)
		}
		if !e.Tick {
			t.Fatalf("tick %d: timer stopped on a shown panel", i)
		}
		if e.Redraw {
			redraws++
		} else {
			same++
		}
		prev = cloneFrame(cur)
	}
	// A working cat walks and ages tick by: both kinds must occur.
	if redraws == 0 || same == 0 {
		t.Fatalf("redraws=%d unchanged=%d: the test did not exercise both", redraws, same)
	}
}

func cloneFrame(f board.Frame) board.Frame {
	f.Rects = append([]board.Rect(nil), f.Rects...)
	f.Texts = append([]board.Text(nil), f.Texts...)
	return f
}

func TestPanelHidesWhenNobodyNeedsYou(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	e := c.SetSessions([]session.Shown{shown("w1", session.Waiting, t0.Add(-time.Minute), "/p")}, 0, t0)
	if !e.Show {
		t.Fatalf("want show: %+v", e)
	}
	e = c.SetSessions([]session.Shown{shown("w1", session.Working, t0, "/p")}, 0, t0.Add(time.Second))
	if !e.Hide || e.Show || e.Tick {
		t.Fatalf("want hide and the timer off: %+v", e)
	}
	if e.Icon == nil || e.Icon.Attention {
		t.Fatalf("icon must go quiet: %+v", e.Icon)
	}
	// A tick that was already queued when the timer stopped draws nothing.
	if e := c.Tick(t0.Add(2 * time.Second)); e.Redraw || e.Show || e.Tick {
		t.Fatalf("stray tick on a hidden panel: %+v", e)
	}
	if _, ok := clickedID(c, 10, 20); ok {
		t.Fatal("a hidden panel must not take clicks")
	}
}

func TestNewcomerBringsPanelForward(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	a := shown("a1", session.Waiting, t0.Add(-time.Minute), "/p/a")
	if e := c.SetSessions([]session.Shown{a}, 0, t0); !e.Show {
		t.Fatalf("want show: %+v", e)
	}
	if e := c.SetSessions([]session.Shown{a}, 0, t0.Add(time.Second)); e.Show || e.Hide {
		t.Fatalf("the same set again must change nothing: %+v", e)
	}
	b := shown("b1", session.Done, t0.Add(-time.Minute), "/p/b")
	e := c.SetSessions([]session.Shown{a, b}, 0, t0.Add(2*time.Second))
	if !e.Show || e.Resize {
		t.Fatalf("a newcomer brings the panel forward (size changes at the next tick): %+v", e)
	}
	e = c.Tick(t0.Add(2*time.Second + board.TickInterval))
	if !e.Resize || !e.Redraw {
		t.Fatalf("two rows: want resize and redraw, got %+v", e)
	}
	if f, _ := c.Frame(); f.H != board.Height(2) {
		t.Fatalf("frame height %d, want %d", f.H, board.Height(2))
	}
}

func TestPersonShowsAndHidesPanel(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	e := c.ShowPanel(t0)
	if !e.Show || !e.Tick || !e.Redraw {
		t.Fatalf("show from the menu: %+v", e)
	}
	// Nobody needs the person, but they opened it: it stays.
	if e := c.SetSessions(nil, 0, t0.Add(time.Second)); e.Hide {
		t.Fatalf("a panel the person opened must stay: %+v", e)
	}
	e = c.HidePanel(t0.Add(2 * time.Second))
	if !e.Hide || e.Tick {
		t.Fatalf("hide from the menu: %+v", e)
	}
	// Closed by the person, it stays closed for the same waiting set.
	w := shown("w1", session.Waiting, t0.Add(-time.Minute), "/p")
	if e := c.SetSessions([]session.Shown{w}, 0, t0.Add(3*time.Second)); !e.Show {
		t.Fatalf("a new wait opens it again: %+v", e)
	}
	c.HidePanel(t0.Add(4 * time.Second))
	if e := c.SetSessions([]session.Shown{w}, 0, t0.Add(5*time.Second)); e.Show {
		t.Fatalf("the same wait must not reopen a panel the person closed: %+v", e)
	}
}

func TestOcclusionStopsTimer(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	c.ShowPanel(t0)
	if e := c.SetOccluded(true, t0); e.Tick {
		t.Fatalf("occluded panel: timer must stop: %+v", e)
	}
	// Occluded, a tick that still arrives changes nothing on the timer.
	if e := c.SetOccluded(false, t0); !e.Tick {
		t.Fatalf("visible again: timer must run: %+v", e)
	}
	c.SetOccluded(true, t0)
	c.HidePanel(t0)
	// Shown again: the stale "occluded" from before must not keep it still.
	if e := c.ShowPanel(t0.Add(time.Second)); !e.Tick {
		t.Fatalf("reshown panel must tick until told it is occluded: %+v", e)
	}
	c.HidePanel(t0.Add(2 * time.Second))
	if e := c.SetOccluded(false, t0.Add(2*time.Second)); e.Tick {
		t.Fatalf("a hidden panel never ticks: %+v", e)
	}
	// While occluded, a pending settle still gets its recheck.
	c.SetSessions([]session.Shown{shown("w1", session.Waiting, t0.Add(3*time.Second), "/p")}, 0, t0.Add(3*time.Second))
	if e := c.SetOccluded(true, t0.Add(3*time.Second)); e.Recheck == 0 {
		t.Fatalf("occluded with a wait settling: want a recheck, got %+v", e)
	}
}

func TestClickHitsSession(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	c.SetSessions([]session.Shown{
		shown("first", session.Waiting, t0.Add(-2*time.Minute), "/p/a"),
		shown("second", session.Done, t0.Add(-time.Minute), "/p/b"),
	}, 0, t0)
	f, ok := c.Frame()
	if !ok || len(f.Hits) != 2 {
		t.Fatalf("frame hits: %+v", f.Hits)
	}
	for _, h := range f.Hits {
		if id, ok := clickedID(c, h.X+h.W/2, h.Y+h.H/2); !ok || id != h.ID {
			t.Errorf("click in %+v: got %q %v", h, id, ok)
		}
	}
	if id, ok := clickedID(c, 1, 1); ok {
		t.Errorf("the header is not a session, got %q", id)
	}
}

func TestIconReportedOnlyOnChange(t *testing.T) {
	c := newController(board.DefaultConfig())
	if e := c.SetSessions(nil, 0, t0); e.Icon == nil {
		t.Fatal("the first update must set the icon")
	}
	if e := c.SetSessions(nil, 0, t0.Add(time.Second)); e.Icon != nil {
		t.Fatalf("unchanged icon reported again: %+v", e.Icon)
	}
	e := c.SetSessions([]session.Shown{shown("k", session.Working, t0, "/p")}, 0, t0.Add(2*time.Second))
	if e.Icon == nil || e.Icon.Attention || e.Icon.ToolTip != "Mew: 1 working" {
		t.Fatalf("working session: icon %+v", e.Icon)
	}
}

func TestNextSettle(t *testing.T) {
	cfg := board.DefaultConfig()
	now := t0
	cases := []struct {
		name string
		in   []session.Shown
		want time.Duration
	}{
		{"nothing", nil, 0},
		{"working only", []session.Shown{shown("a", session.Working, now, "/p")}, 0},
		{"settled wait", []session.Shown{shown("a", session.Waiting, now.Add(-time.Second), "/p")}, 0},
		{"wait exactly at the deadline", []session.Shown{shown("a", session.Waiting, now.Add(-cfg.WaitingSettle), "/p")}, 0},
		{"fresh wait", []session.Shown{shown("a", session.Waiting, now.Add(-100*time.Millisecond), "/p")},
			cfg.WaitingSettle - 100*time.Millisecond + recheckSlack},
		{"fresh done", []session.Shown{shown("a", session.Done, now, "/p")}, cfg.DoneSettle + recheckSlack},
		{"earliest of several", []session.Shown{
			shown("a", session.Done, now, "/p"),
			shown("b", session.Failed, now.Add(-900*time.Millisecond), "/p"),
			shown("c", session.Waiting, now, "/p"),
		}, 100*time.Millisecond + recheckSlack},
		{"unknown since", []session.Shown{{ID: "a", State: session.Waiting}}, 0},
		{"since far in the future", []session.Shown{shown("a", session.Waiting, now.Add(time.Hour), "/p")}, 0},
	}
	for _, c := range cases {
		if got := nextSettle(c.in, now, cfg); got != c.want {
			t.Errorf("%s: nextSettle = %v, want %v", c.name, got, c.want)
		}
	}
}

// A session that settles during a tick brings the panel forward and is
// drawn on that same tick.
func TestSettleDuringTickDrawsAtOnce(t *testing.T) {
	cfg := board.DefaultConfig()
	c := newController(cfg)
	c.SetSessions(nil, 0, t0)
	a := shown("a1", session.Waiting, t0.Add(-time.Minute), "/p/a")
	b := shown("b1", session.Done, t0, "/p/b")
	c.SetSessions([]session.Shown{a, b}, 0, t0)
	if f, _ := c.Frame(); f.H != board.Height(2) {
		// b shows as working until it settles: two rows already.
		t.Fatalf("height %d, want %d", f.H, board.Height(2))
	}
	e := c.Tick(t0.Add(cfg.DoneSettle))
	if !e.Show || !e.Redraw || len(e.Alerts) != 1 || e.Alerts[0].ID != "b1" {
		t.Fatalf("settled during a tick: want show, redraw and b1's alert, got %+v", e)
	}
}

// A click in the view's points (flipped: y down from the top) reaches the
// session drawn there, at every screen scale.
func TestClickInPointsReachesSession(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, t0)
	c.SetSessions([]session.Shown{
		shown("first", session.Waiting, t0.Add(-2*time.Minute), "/p/a"),
		shown("second", session.Done, t0.Add(-time.Minute), "/p/b"),
	}, 0, t0)
	f, _ := c.Frame()
	for _, backing := range []float64{1, 2, 3} {
		ppp := pointsPerPixelFor(backing)
		for _, h := range f.Hits {
			// The last point inside the hit's bottom-right board pixel.
			px := (float64(h.X+h.W) - 0.01) * ppp
			py := (float64(h.Y+h.H) - 0.01) * ppp
			x, y := toLogical(px, py, ppp)
			if id, ok := clickedID(c, x, y); !ok || id != h.ID {
				t.Errorf("backing %v: click at (%.2f, %.2f) pt → (%d, %d): %q %v, want %s", backing, px, py, x, y, id, ok, h.ID)
			}
		}
	}
}

// clickedID is the session a click at x, y acts on (ClickAt), if any.
func clickedID(c *controller, x, y int) (string, bool) {
	a := c.ClickAt(x, y)
	return a.ID, a.Kind != clickNothing
}
