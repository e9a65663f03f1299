package board

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/session"
)

var qNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func withQuota(id, agent string, at time.Time, five, week *session.Quota) session.Shown {
	return session.Shown{ID: id, Agent: agent, State: session.Working, Usage: &session.Usage{At: at, FiveHour: five, Weekly: week}}
}

func TestQuotaBarsNewestPerAccount(t *testing.T) {
	reset := qNow.Add(2 * time.Hour)
	shown := []session.Shown{
		withQuota("a", session.AgentClaude, qNow.Add(-time.Minute), &session.Quota{UsedPercent: 40, ResetsAt: reset}, nil),
		withQuota("b", session.AgentClaude, qNow.Add(-10*time.Second), &session.Quota{UsedPercent: 45, ResetsAt: reset}, &session.Quota{UsedPercent: 91}),
		withQuota("c", session.AgentCodex, qNow.Add(-time.Hour), &session.Quota{UsedPercent: 10, ResetsAt: qNow.Add(-time.Minute)}, nil),
		{ID: "d", Agent: session.AgentGemini, State: session.Working}, // reports none: no bar
	}
	bars := Quotas(shown, qNow, 90)
	var got []string
	for _, b := range bars {
		got = append(got, b.Who()+" "+b.Window+" "+b.PercentText()+" "+b.Note(time.UTC)+map[bool]string{true: " OVER"}[b.Over])
	}
	want := []string{
		"claude 5h 45% resets 14:00",
		"claude week 91%  OVER", // no reset time reported: no note
		"codex 5h - reset since 11:59 · 1h ago",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bars:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The quota alert policy: once when a window reaches the threshold, never
// on the redraws after, again only in a new period or after it fell back.
func TestQuotaAlertOncePerPeriod(t *testing.T) {
	p1, p2 := qNow.Add(time.Hour), qNow.Add(6*time.Hour)
	steps := []struct {
		pct   float64
		reset time.Time
		alert bool
	}{
		{50, p1, false},
		{89.9, p1, false},
		{90, p1, true},          // reaches the threshold
		{90, p1, false},         // redraw
		{95, p1, false},         // still the same period
		{30, p2, false},         // the window reset
		{92, p2, true},          // the new period passes it
		{92, p2, false},         // redraw
		{80, p2, false},         // fell back below (a reading of a smaller use)
		{91, p2, true},          // passes it again
		{91, time.Time{}, true}, // a reading with no reset time is another period
		{91, time.Time{}, false},
	}
	b := New(Config{QuotaThreshold: 90})
	for i, s := range steps {
		v := b.Update([]session.Shown{withQuota("a", session.AgentClaude, qNow, &session.Quota{UsedPercent: s.pct, ResetsAt: s.reset}, nil)}, qNow)
		if got := len(v.QuotaAlerts) == 1; got != s.alert {
			t.Fatalf("step %d (%v%%): alert %v, want %v", i, s.pct, got, s.alert)
		}
	}
}

func TestQuotaThresholdDefault(t *testing.T) {
	b := New(Config{})
	v := b.Update([]session.Shown{withQuota("a", session.AgentCodex, qNow, nil, &session.Quota{UsedPercent: 90})}, qNow)
	if len(v.QuotaAlerts) != 1 || !strings.Contains(v.QuotaAlerts[0].Message(time.UTC), "codex week quota at 90%") {
		t.Fatalf("%+v", v.QuotaAlerts)
	}
	v = b.Update([]session.Shown{withQuota("a", session.AgentCodex, qNow, nil, &session.Quota{UsedPercent: 89})}, qNow)
	if len(v.QuotaAlerts) != 0 {
		t.Fatal("alerted below the threshold")
	}
}

func TestUsageNote(t *testing.T) {
	ctx, cost := 33.4, 1.5
	s := session.Shown{Usage: &session.Usage{ContextPercent: &ctx, CostUSD: &cost}}
	if got := UsageNote(s); got != "ctx 33% $1.50" {
		t.Fatal(got)
	}
	if got := UsageNote(session.Shown{Usage: &session.Usage{}}); got != "" {
		t.Fatalf("figures made up: %q", got)
	}
}

func TestWithQuotasGrowsTheFrame(t *testing.T) {
	f := Draw(nil, qNow, 0)
	bars := Quotas([]session.Shown{withQuota("a", session.AgentClaude, qNow, &session.Quota{UsedPercent: 50}, &session.Quota{UsedPercent: 95})}, qNow, 90)
	g := WithQuotas(f, bars, time.UTC)
	if g.H != f.H+QuotaHeight(bars) || len(g.Rects) <= len(f.Rects) {
		t.Fatalf("frame %d → %d", f.H, g.H)
	}
	var over bool
	for _, r := range g.Rects[len(f.Rects):] {
		if r.Color == assets.Theme.Waiting && r.W == 46 {
			over = true
		}
	}
	if !over {
		t.Error("the 95% bar is not drawn in the alert colour at 95% of its width")
	}
}
