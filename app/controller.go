package app

import (
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// controller holds the app's state between events and decides what the
// macOS side does: show or hide the panel, resize it, redraw it, run or
// stop the 8 Hz timer, ring, change the status icon. It is not safe for
// concurrent use: the app calls it on the main thread only, and the
// darwin code carries out the effects it returns.
type controller struct {
	cfg      board.Config
	board    *board.Board
	scene    *board.Scene
	sessions []session.Shown
	problems int
	rows     []board.Row
	quotas   []board.QuotaBar // the accounts' quota bars, drawn under the rows

	frame        board.Frame // the latest frame the scene drew
	framed       bool
	sizedW       int // the frame size the panel was last sized for
	sizedH       int
	shown        bool // the panel is on screen, as last decided
	occluded     bool // the window server says no part of the panel is visible
	icon         statusIcon
	iconReported bool
	// quotasDrawn: the last frame has the current quota bars.
	quotasDrawn bool
}

// effects are what one event asks of the macOS side, in this order:
// resize, show or hide, redraw, timer, alerts, icon.
type effects struct {
	// Show puts the panel on screen and in front (also when it already
	// is and a session newly needs the person); Hide takes it off. At most
	// one is set.
	Show, Hide bool
	// Resize: the frame's size changed; the panel gets the size of
	// controller.Frame (see panelRect).
	Resize bool
	// Redraw: the frame changed; the view draws controller.Frame.
	Redraw bool
	// Tick is whether the 8 Hz timer should run from now on.
	Tick bool
	// Recheck, when the timer is stopped and more than zero, asks for
	// Recheck to be called after this long: a needs-you state settles then,
	// and the panel must open without waiting for the next file event.
	Recheck time.Duration
	// Alerts are the sounds (and notifications) due, most urgent first.
	Alerts []board.Alert
	// QuotaAlerts are the quota windows that passed the threshold now.
	QuotaAlerts []board.QuotaAlert
	// Icon is set when the status item must change.
	Icon *statusIcon
}

// recheckSlack puts a recheck just past the settle deadline, so the state
// has surely settled when it runs.
const recheckSlack = 5 * time.Millisecond

// newController starts with no sessions and the panel hidden.
func newController(cfg board.Config) *controller {
	return &controller{cfg: cfg, board: board.New(cfg), scene: board.NewScene()}
}

// shouldTick is the timer's run policy: animate only a panel that is on
// screen and not fully covered (hidden behind a full-screen app, on a
// sleeping display, behind the screen saver).
func shouldTick(shown, occluded bool) bool { return shown && !occluded }

// SetSessions takes a monitor update.
func (c *controller) SetSessions(sessions []session.Shown, problems int, now time.Time) effects {
	c.sessions, c.problems = sessions, problems
	return c.update(now)
}

// Recheck re-evaluates the board at now without new sessions (settling).
func (c *controller) Recheck(now time.Time) effects { return c.update(now) }

// Tick is one step of the 8 Hz timer: the board at now, then the next
// frame of the cats.
// A tick that fires after the timer stopped (queued before the panel
// hid) only updates the board.
func (c *controller) Tick(now time.Time) effects {
	e, opened := c.updateOpened(now)
	if c.shown && !opened { // a panel that just opened has its frame already
		c.step(now, &e)
	}
	return e
}

// ShowPanel is the person opening the panel from the menu: it stays up
// until they close it.
func (c *controller) ShowPanel(now time.Time) effects {
	c.board.Show()
	return c.update(now)
}

// HidePanel is the person closing the panel: it stays closed until a
// session newly needs them.
func (c *controller) HidePanel(now time.Time) effects {
	c.board.Close()
	return c.update(now)
}

// SetOccluded takes the window server's word on whether any part of the
// panel is visible. Only the timer changes.
func (c *controller) SetOccluded(occluded bool, now time.Time) effects {
	c.occluded = occluded
	e := effects{Tick: shouldTick(c.shown, c.occluded)}
	if !e.Tick {
		e.Recheck = nextSettle(c.sessions, now, c.cfg)
	}
	return e
}

// Frame is the frame the view draws. Its slices are shared with the scene:
// read-only.
func (c *controller) Frame() (board.Frame, bool) { return c.frame, c.framed }

// Rows are the sessions as the board last listed them.
func (c *controller) Rows() []board.Row { return c.rows }

// Problems is how many sources the last monitor update could not read.
func (c *controller) Problems() int { return c.problems }

// PanelShown reports whether the panel is on screen.
func (c *controller) PanelShown() bool { return c.shown }

func (c *controller) update(now time.Time) effects {
	e, _ := c.updateOpened(now)
	return e
}

// updateOpened folds the time and sessions into the board; opened reports
// that the panel opened on this update (and its frame was drawn).
func (c *controller) updateOpened(now time.Time) (e effects, opened bool) {
	v := c.board.Update(c.sessions, now)
	c.rows = v.Rows
	if !sameBars(c.quotas, v.Quotas) {
		c.quotasDrawn = false
	}
	c.quotas = v.Quotas
	e.QuotaAlerts = v.QuotaAlerts
	switch {
	case v.Open && !c.shown:
		c.shown, e.Show, opened = true, true, true
		// Just ordered front: visible until the window server says
		// otherwise (a stale "occluded" from the last hide must not keep
		// the timer off).
		c.occluded = false
		c.step(now, &e)
	case v.Open && len(v.Entered) > 0:
		e.Show = true // bring it forward for the newcomer
	case !v.Open && c.shown:
		c.shown, e.Hide = false, true
	}
	e.Tick = shouldTick(c.shown, c.occluded)
	if !e.Tick {
		e.Recheck = nextSettle(c.sessions, now, c.cfg)
	}
	e.Alerts = v.Alerts
	if icon := iconFor(c.rows); !c.iconReported || icon != c.icon {
		c.icon, c.iconReported = icon, true
		e.Icon = &icon
	}
	return e, opened
}

// step draws the next frame into e.
func (c *controller) step(now time.Time, e *effects) {
	f := c.scene.Tick(c.rows, now)
	if f.Unchanged && c.framed && c.quotasDrawn {
		return
	}
	f = board.WithQuotas(f, c.quotas, time.Local)
	c.quotasDrawn = true
	c.frame, c.framed = f, true
	e.Redraw = true
	if f.W != c.sizedW || f.H != c.sizedH {
		c.sizedW, c.sizedH = f.W, f.H
		e.Resize = true
	}
}

// nextSettle is how long until the first needs-you state that has not
// settled yet does, or 0 when none is pending.
func nextSettle(sessions []session.Shown, now time.Time, cfg board.Config) time.Duration {
	var next time.Duration
	for _, s := range sessions {
		var settle time.Duration
		switch s.State {
		case session.Waiting:
			settle = cfg.WaitingSettle
		case session.Done, session.Failed:
			settle = cfg.DoneSettle
		default:
			continue
		}
		if s.Since.IsZero() {
			continue
		}
		left := s.Since.Add(settle).Sub(now)
		if left <= 0 || left >= settle+time.Second {
			// Settled already, or a Since in the future (a clock step):
			// the monitor's next pass re-evaluates anyway.
			continue
		}
		if left += recheckSlack; next == 0 || left < next {
			next = left
		}
	}
	return next
}

// sameBars reports whether two sets of quota bars draw alike (a reading's
// age moves on every tick but shows only in whole minutes once stale).
func sameBars(a, b []board.QuotaBar) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Who() != y.Who() || x.Window != y.Window || x.PercentText() != y.PercentText() || x.Over != y.Over ||
			x.Note(time.Local) != y.Note(time.Local) {
			return false
		}
	}
	return true
}
