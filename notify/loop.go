package notify

import (
	"context"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// Loop turns the monitor's updates into alerts for the sinks: the board's
// alerter decides what newly needs the person, board.Decide what the
// person muted, snoozed or is looking at, and only the Mew holding the
// sending lock sends.
type Loop struct {
	Board board.Config
	Prefs *alertprefs.Store
	// Focus reports the terminal in front, asked only when alerts are due
	// (one tmux command); nil knows nothing.
	Focus func(ctx context.Context) board.Focus
	// Sending says whether this Mew holds the sending lock (it may take
	// it now, when the Mew that held it quit).
	Sending func() bool
	Send    func(Message)
	// Sent remembers the alerts sent across restarts; nil remembers
	// nothing.
	Sent *Sent
	Log  Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// Link is the web board's page of a session ("" or nil: no link; see
	// internal/weblink).
	Link func(id string) string
}

// Run reads updates until they end or ctx does.
func (l *Loop) Run(ctx context.Context, updates <-chan monitor.Update) {
	now := l.Now
	if now == nil {
		now = time.Now
	}
	b := board.New(l.Board)
	var last monitor.Update
	var sessions []session.Shown // last's, as the board takes them
	settle := time.NewTimer(time.Hour)
	settle.Stop()
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case u, ok := <-updates:
			if !ok {
				return
			}
			last, sessions = u, monitor.Values(u.Sessions)
		case <-settle.C:
		}
		t := now()
		v := b.Update(sessions, t)
		if first && l.Log != nil {
			// The first update only learns what already needs the person.
			l.Log.Printf("notify: watching %d session(s)", len(last.Sessions))
		}
		first = false
		if len(v.Alerts) > 0 {
			l.alert(ctx, v.Alerts, last, t)
		}
		// A state that has not settled alerts later with no update:
		// wake when it would settle.
		if d, ok := l.nextSettle(last.Sessions, t); ok {
			settle.Reset(d)
		}
	}
}

func (l *Loop) nextSettle(ss []*session.Shown, now time.Time) (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, s := range ss {
		var hold time.Duration
		switch s.State {
		case session.Waiting:
			hold = l.Board.WaitingSettle
		case session.Done, session.Failed:
			hold = l.Board.DoneSettle
		default:
			continue
		}
		left := s.Since.Add(hold).Sub(now)
		if left <= 0 || s.Since.IsZero() {
			continue
		}
		left += 10 * time.Millisecond
		if !found || left < best {
			best, found = left, true
		}
	}
	return best, found
}

func (l *Loop) alert(ctx context.Context, alerts []board.Alert, u monitor.Update, now time.Time) {
	if l.Sending != nil && !l.Sending() {
		// Another Mew of this $MEW_HOME sends: said, so that a takeover
		// can be told from an alert seen late.
		if l.Log != nil {
			for _, a := range alerts {
				l.Log.Printf("notify: %s %s, not sent: another Mew sends", a.ID, a.State)
			}
		}
		return
	}
	facts := board.AlertFacts{}
	if l.Prefs != nil {
		p, err := l.Prefs.Load()
		if err != nil && l.Log != nil {
			l.Log.Printf("notify: %s: %v (mutes left out)", alertprefs.Name, err)
		}
		facts.Muted, facts.Snoozed = p.Muted, p.Snoozed
	}
	if l.Focus != nil {
		facts.Focused = board.FocusedSessions(monitor.Values(u.Records), l.Focus(ctx))
	}
	byID := make(map[string]session.Shown, len(u.Sessions))
	for _, s := range u.Sessions {
		byID[s.ID] = *s
	}
	for _, d := range board.Decide(alerts, facts, now) {
		if d.Held != board.Send {
			if l.Log != nil {
				l.Log.Printf("notify: %s %s, not sent: %s", d.ID, d.State, d.Held)
			}
			continue
		}
		s := byID[d.ID]
		if l.Sent.Already(d.ID, d.State, s.Since) {
			if l.Log != nil {
				l.Log.Printf("notify: %s %s, not sent: sent before (a Mew before a restart)", d.ID, d.State)
			}
			continue
		}
		m := MessageFor(d.Alert, s)
		if l.Link != nil {
			m.Link = l.Link(d.ID)
		}
		l.Send(m)
		l.Sent.Note(d.ID, d.State, s.Since, now)
	}
}
