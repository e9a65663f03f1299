// Package board decides what Mew's panel shows, when it shows, and when it
// makes a sound, and draws it as a frame of pixel-art cats. It is pure: the
// caller passes the sessions and the time, and gets back rows, visibility,
// alerts and frames; the macOS panel, the terminal board and the PNG
// snapshot only display them.
//
// What is listed, in order:
//
//   - waiting sessions, the longest wait first;
//   - done and failed sessions, the longest first: a failed turn needs the
//     person as much as a finished one, so it sits with done (and counts for
//     the panel's visibility and alerts like done);
//   - working sessions, by project then id, so busy cats don't swap rooms
//     as their states churn;
//   - idle and exited sessions only with Config.ShowQuiet (`mew snapshot
//     --all`): nothing to do there, so the panel leaves them out. Headless
//     sessions (`claude -p`, SDK apps) that wait or are done go there too:
//     nobody attends them, so they never open the panel or ring.
//
// A waiting, done or failed state counts only once it has held for a short
// settle time (Config): until then the session is shown as working. The
// real CLI shows done for ~0.2 s between a background subagent's stop and
// its automatic re-engagement, and a permission prompt another hook
// approves lasts milliseconds; neither should open the panel or ring.
package board

import (
	"slices"
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
)

// Config tunes the board. The zero value settles at once and never cools
// down; DefaultConfig is what the apps use.
type Config struct {
	// WaitingSettle is how long a waiting state must hold before it counts.
	// Short: a prompt a person must answer lasts seconds, and the panel
	// must feel instant.
	WaitingSettle time.Duration
	// DoneSettle is the same for done and failed: five times the CLI's
	// 0.2 s done flash between a subagent's stop and the re-engagement.
	DoneSettle time.Duration
	// Cooldown is the quiet time after an alert for the same session and
	// state.
	Cooldown time.Duration
	// ShowQuiet lists idle and exited sessions too, after the rest.
	ShowQuiet bool
	// QuotaThreshold is the percentage of a quota window that alerts
	// (QuotaAlerts), once per window; 0 means DefaultQuotaThreshold.
	QuotaThreshold float64
	// TmuxSocket is the socket path of the tmux server Mew reads: rows say
	// where they are with it (Where).
	TmuxSocket string
}

func (c Config) quotaThreshold() float64 {
	if c.QuotaThreshold > 0 {
		return c.QuotaThreshold
	}
	return DefaultQuotaThreshold
}

// DefaultConfig is the board the apps use.
func DefaultConfig() Config {
	return Config{
		WaitingSettle: 300 * time.Millisecond,
		DoneSettle:    time.Second,
		Cooldown:      30 * time.Second,
	}
}

// Group is a section of the board.
type Group int

const (
	GroupWaiting Group = iota
	GroupDone          // done and failed
	GroupWorking
	GroupQuiet // idle and exited (only with ShowQuiet)
	groupHidden
)

// Row is one listed session as the board presents it.
type Row struct {
	Session session.Shown
	// State and Reason are what the board shows: the session's own, except
	// that a needs-you state that has not settled shows as working.
	State  session.State
	Reason session.Reason
	Group  Group
	// Project is the session's label: the folder name, and " @host" for a
	// session on another machine (Label).
	Project string
	Age     time.Duration // how long the session has been in its state
	Cat     Cat
	// Offline is set, "offline, last seen …", while the session's host
	// cannot be reached: its state is the last one seen.
	Offline string
}

// NeedsYou reports whether the row asks for the person: waiting, done or
// failed, in a session someone attends (not `claude -p` or an SDK app).
func (r Row) NeedsYou() bool { return !r.Session.Headless && needsYou(r.State) }

func needsYou(s session.State) bool {
	return s == session.Waiting || s == session.Done || s == session.Failed
}

// settleFor is how long state must hold before the board believes it.
func (c Config) settleFor(s session.State) time.Duration {
	switch s {
	case session.Waiting:
		return c.WaitingSettle
	case session.Done, session.Failed:
		return c.DoneSettle
	}
	return 0
}

// present returns the state and reason the board shows for s at now.
func (c Config) present(s session.Shown, now time.Time) (session.State, session.Reason) {
	if needsYou(s.State) && !s.Since.IsZero() && now.Sub(s.Since) < c.settleFor(s.State) {
		return session.Working, ""
	}
	if s.State != session.Waiting {
		return s.State, ""
	}
	return s.State, s.Reason
}

func groupOf(s session.State) Group {
	switch s {
	case session.Waiting:
		return GroupWaiting
	case session.Done, session.Failed:
		return GroupDone
	case session.Working:
		return GroupWorking
	case session.Idle, session.Exited:
		return GroupQuiet
	}
	return groupHidden // a state this Mew does not know: claim nothing
}

// Arrange returns the rows the board lists for sessions at now, in order.
// Invalid or duplicate ids are left out (an id names a cat and a jump).
func Arrange(sessions []session.Shown, now time.Time, cfg Config) []Row {
	rows := make([]Row, 0, len(sessions))
	seen := make(map[string]bool, len(sessions))
	for _, s := range sessions {
		if !session.ValidID(s.ID) || seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		st, reason := cfg.present(s, now)
		g := groupOf(st)
		if s.Headless && g < GroupWorking {
			g = GroupQuiet // nobody attends it: nothing for the person to do
		}
		if g == groupHidden || (g == GroupQuiet && !cfg.ShowQuiet) {
			continue
		}
		age := now.Sub(s.Since)
		if s.Since.IsZero() || age < 0 {
			age = 0
		}
		row := Row{
			Session: s, State: st, Reason: reason, Group: g,
			Project: Label(s), Age: age, Cat: CatFor(s.ID),
		}
		if s.Offline {
			row.Offline = OfflineNote(s.LastSeen, now)
		}
		rows = append(rows, row)
	}
	// Sort positions, not rows: a Row is a few hundred bytes, and moving
	// them was a third of a tick.
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case less(&rows[i], &rows[j]):
			return -1
		case less(&rows[j], &rows[i]):
			return 1
		}
		return 0
	})
	sorted := make([]Row, len(rows))
	for k, i := range order {
		sorted[k] = rows[i]
	}
	return sorted
}

func less(a, b *Row) bool {
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	switch a.Group {
	case GroupWaiting, GroupDone:
		// The longest wait first; a zero Since (unknown) counts as oldest.
		if !a.Session.Since.Equal(b.Session.Since) {
			return a.Session.Since.Before(b.Session.Since)
		}
	case GroupQuiet:
		if a.State != b.State {
			return a.State == session.Idle
		}
		fallthrough
	default:
		if a.Project != b.Project {
			return strings.ToLower(a.Project) < strings.ToLower(b.Project)
		}
	}
	return a.Session.ID < b.Session.ID
}

// Board is the panel's memory between updates: which sessions needed the
// person, whether the person closed the panel, and when each alert rang.
type Board struct {
	cfg    Config
	panel  Panel
	alerts alerter
	quota  quotaAlerter
}

// View is what an update decided.
type View struct {
	Rows []Row
	// Open says whether the panel should be visible now; Opened is true on
	// the update that opened it (the view may bring it forward then).
	Open, Opened bool
	// Entered lists the ids that joined the needs-you set on this update.
	Entered []string
	// Alerts are the sounds due on this update, most urgent first.
	Alerts []Alert
	// Quotas are the accounts' quota windows (the compact bars), and
	// QuotaAlerts the windows that passed the threshold on this update.
	Quotas      []QuotaBar
	QuotaAlerts []QuotaAlert
}

// New returns a board with nothing seen yet.
func New(cfg Config) *Board {
	return &Board{cfg: cfg, alerts: alerter{cooldown: cfg.Cooldown}, quota: quotaAlerter{threshold: cfg.quotaThreshold()}}
}

// Update folds in the current sessions. Call it whenever they change and
// on every tick (settling and cooldowns depend on the time alone).
func (b *Board) Update(sessions []session.Shown, now time.Time) View {
	rows := Arrange(sessions, now, b.cfg)
	var ids []string
	for _, r := range rows {
		if r.NeedsYou() {
			ids = append(ids, r.Session.ID)
		}
	}
	wasOpen := b.panel.IsOpen()
	entered := b.panel.Update(ids)
	quotas := Quotas(sessions, now, b.cfg.quotaThreshold())
	return View{
		Rows: rows, Open: b.panel.IsOpen(), Opened: b.panel.IsOpen() && !wasOpen,
		Entered: entered, Alerts: b.alerts.update(rows, now),
		Quotas: quotas, QuotaAlerts: b.quota.update(quotas),
	}
}

// Close records that the person closed the panel: it stays closed until a
// session newly needs them.
func (b *Board) Close() { b.panel.Close() }

// Show records that the person opened the panel themselves (the menu-bar
// icon): it stays open, even with nothing needing them, until they close
// it.
func (b *Board) Show() { b.panel.Show() }

// IsOpen reports whether the panel should be visible.
func (b *Board) IsOpen() bool { return b.panel.IsOpen() }
