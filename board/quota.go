package board

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/usage"
)

// DefaultQuotaThreshold is the percentage of a quota window past which Mew
// alerts, unless the person sets another (Config.QuotaThreshold).
const DefaultQuotaThreshold = 90

// Windows Mew shows, in order.
const (
	Window5h   = "5h"
	WindowWeek = "week"
)

// QuotaBar is one quota window of one account, as the boards draw it: a
// compact bar with the percentage used and the reset time.
type QuotaBar struct {
	Host    string // "" for this machine
	Agent   string
	Account string
	Window  string // Window5h | WindowWeek
	Percent float64
	// ResetsAt is when the window starts afresh (zero: not reported), In
	// how long from now.
	ResetsAt time.Time
	In       time.Duration
	// Age is how old the reading is; Stale says it is old enough to say so.
	Age   time.Duration
	Stale bool
	// Reset: the window has reset since the reading, so its percentage
	// says nothing about now (the bar is drawn empty, the note says so).
	Reset bool
	// Over: at or past the alert threshold.
	Over bool
}

// Quotas returns the bars for the sessions' newest quota readings, per
// host, agent and account: the 5 h window, then the weekly one. An agent
// that reports no quota has no bar.
func Quotas(shown []session.Shown, now time.Time, threshold float64) []QuotaBar {
	var out []QuotaBar
	for _, a := range usage.Accounts(shown) {
		for _, w := range []struct {
			name string
			q    *session.Quota
		}{{Window5h, a.FiveHour}, {WindowWeek, a.Weekly}} {
			if w.q == nil {
				continue
			}
			age := now.Sub(a.At)
			if age < 0 {
				age = 0
			}
			b := QuotaBar{Host: a.Host, Agent: a.Agent, Account: a.Account, Window: w.name, Percent: w.q.UsedPercent,
				ResetsAt: w.q.ResetsAt, Age: age, Stale: usage.Stale(a.At, now), Reset: usage.Reset(w.q, now)}
			if !b.ResetsAt.IsZero() {
				b.In = b.ResetsAt.Sub(now)
			}
			b.Over = !b.Reset && b.Percent >= threshold
			out = append(out, b)
		}
	}
	return out
}

// Who names the account a bar is of: the agent, its plan when it says
// one, and the host when remote.
func (b QuotaBar) Who() string {
	s := b.Agent
	if b.Account != "" {
		s += " " + b.Account
	}
	if b.Host != "" {
		s += " @" + b.Host
	}
	return text.OneLine(s, 40)
}

// Note is what follows a bar: the reset time, and the reading's age when
// it is stale (times in loc).
func (b QuotaBar) Note(loc *time.Location) string {
	var parts []string
	switch {
	case b.Reset:
		parts = append(parts, "reset since "+b.ResetsAt.In(loc).Format("15:04"))
	case !b.ResetsAt.IsZero():
		parts = append(parts, "resets "+resetTime(b.ResetsAt.In(loc), b.In))
	}
	if b.Stale {
		parts = append(parts, FormatAge(b.Age)+" ago")
	}
	return strings.Join(parts, " · ")
}

// resetTime is a reset moment as short as it can be said: the hour, or the
// day and hour when it is more than a day off.
func resetTime(t time.Time, in time.Duration) string {
	if in > 20*time.Hour {
		return t.Format("Mon 15:04")
	}
	return t.Format("15:04")
}

// PercentText is the percentage as shown: whole percents, "—" after a reset.
func (b QuotaBar) PercentText() string {
	if b.Reset {
		return "-"
	}
	return fmt.Sprintf("%d%%", int(math.Round(b.Percent)))
}

// TextBar is the bar drawn with n cells of text.
func (b QuotaBar) TextBar(n int) string {
	filled := 0
	if !b.Reset {
		filled = int(math.Round(clampPercent(b.Percent) / 100 * float64(n)))
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", n-filled)
}

// UsageNote is a session's own figures as the rows show them: how full
// its context is and what it cost, when its agent reports them.
func UsageNote(s session.Shown) string {
	u := s.Usage
	if u == nil {
		return ""
	}
	var parts []string
	if u.ContextPercent != nil {
		parts = append(parts, fmt.Sprintf("ctx %d%%", int(math.Round(*u.ContextPercent))))
	}
	if u.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.2f", *u.CostUSD))
	}
	return strings.Join(parts, " ")
}

// QuotaSound is the panel's sound for a quota alert.
const QuotaSound = "Sosumi"

// QuotaAlert says a quota window passed the person's threshold.
type QuotaAlert struct {
	Bar QuotaBar
}

// Message is the alert's text.
func (a QuotaAlert) Message(loc *time.Location) string {
	m := fmt.Sprintf("%s %s quota at %s", a.Bar.Who(), a.Bar.Window, a.Bar.PercentText())
	if n := a.Bar.Note(loc); n != "" {
		m += " (" + n + ")"
	}
	return m
}

type quotaKey struct{ host, agent, account, window string }

// quotaAlerter alerts once per window and period: when a window's reading
// reaches the threshold it alerts, and not again until the window resets
// (a new reset time) or its reading drops back below the threshold.
type quotaAlerter struct {
	threshold float64
	alerted   map[quotaKey]time.Time // the period (its reset time) alerted for
}

func (q *quotaAlerter) update(bars []QuotaBar) []QuotaAlert {
	var out []QuotaAlert
	for _, b := range bars {
		k := quotaKey{b.Host, b.Agent, b.Account, b.Window}
		period, done := q.alerted[k]
		switch {
		case !b.Over:
			if done && (b.Reset || !b.ResetsAt.Equal(period) || b.Percent < q.threshold) {
				delete(q.alerted, k)
			}
		case done && period.Equal(b.ResetsAt):
			// Already said for this period.
		default:
			if q.alerted == nil {
				q.alerted = map[quotaKey]time.Time{}
			}
			q.alerted[k] = b.ResetsAt
			out = append(out, QuotaAlert{Bar: b})
		}
	}
	return out
}

// Quota strip of the frame: one line per bar under the rows.
const (
	quotaLineH = 11
	quotaBarW  = 48
)

// QuotaHeight is how much taller bars make a frame.
func QuotaHeight(bars []QuotaBar) int {
	if len(bars) == 0 {
		return 0
	}
	return 3 + len(bars)*quotaLineH
}

// WithQuotas returns f with the quota strip drawn under it: per bar the
// account, the window, a bar filled to the percentage (in the waiting
// colour past the threshold) and the note. The frame grows to fit.
func WithQuotas(f Frame, bars []QuotaBar, loc *time.Location) Frame {
	if len(bars) == 0 {
		return f
	}
	t := assets.Theme
	rects := append([]Rect(nil), f.Rects...)
	texts := append([]Text(nil), f.Texts...)
	y := f.H + 2
	rects = append(rects, Rect{0, f.H, f.W, 1, t.Header})
	whoW := 0
	for _, b := range bars {
		whoW = max(whoW, min(len([]rune(b.Who())), 14))
	}
	for _, b := range bars {
		x := 4
		label := fmt.Sprintf("%-*s %-4s", whoW, text.Clip(b.Who(), 14), b.Window)
		texts = append(texts, Text{X: x, Y: y + 1, S: label, Color: t.Text, Size: assets.GlyphH})
		x += len([]rune(label))*assets.GlyphAdv + 4
		fill := t.Working
		if b.Over {
			fill = t.Waiting
		}
		if b.Stale || b.Reset {
			fill = t.Dim
		}
		rects = append(rects, Rect{x, y + 1, quotaBarW, 8, t.Wall})
		if !b.Reset {
			w := int(math.Round(clampPercent(b.Percent) / 100 * quotaBarW))
			rects = append(rects, Rect{x, y + 1, w, 8, fill})
		}
		x += quotaBarW + 4
		note := b.PercentText()
		if n := b.Note(loc); n != "" {
			note += " " + n
		}
		chars := (f.W - x - 2) / assets.GlyphAdv
		texts = append(texts, Text{X: x, Y: y + 1, S: text.Clip(note, max(chars, 0)), Color: t.Dim, Size: assets.GlyphH})
		y += quotaLineH
	}
	f.Rects, f.Texts = rects, texts
	f.H += QuotaHeight(bars)
	return f
}

// clampPercent bounds a percentage for drawing: a session file anyone can
// write may say -5 or 1e9.
func clampPercent(p float64) float64 {
	if math.IsNaN(p) {
		return 0
	}
	return math.Max(0, math.Min(p, 100))
}
