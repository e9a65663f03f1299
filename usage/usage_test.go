package usage

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func TestFromClaude(t *testing.T) {
	cases := []struct {
		name, in string
		check    func(session.Usage) bool
	}{
		{"API key: no rate_limits", `{"session_id":"s","cost":{"total_cost_usd":0.5},"context_window":{"context_window_size":200000,"used_percentage":null}}`,
			func(u session.Usage) bool {
				return u.FiveHour == nil && u.Weekly == nil && u.ContextPercent == nil && *u.CostUSD == 0.5 && u.ContextSize == 200000
			}},
		{"rate limits", `{"session_id":"s","rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1796172559},"seven_day":{"used_percentage":null}}}`,
			func(u session.Usage) bool {
				return u.FiveHour.UsedPercent == 42 && u.FiveHour.ResetsAt.Equal(time.Unix(1796172559, 0)) && u.Weekly == nil
			}},
		{"absurd figures dropped", `{"session_id":"s","cost":{"total_cost_usd":-1},"rate_limits":{"five_hour":{"used_percentage":-3,"resets_at":-1}},"context_window":{"used_percentage":1e308}}`,
			func(u session.Usage) bool { return u.CostUSD == nil && u.FiveHour == nil && u.ContextPercent == nil }},
		{"hostile model", `{"session_id":"s","model":{"display_name":"\u001b]0;pwn\u0007x"}}`,
			func(u session.Usage) bool { return u.Model != "" && u.Model[0] != 0x1b }},
	}
	for _, c := range cases {
		id, u, err := FromClaude([]byte(c.in), now)
		if err != nil || id != "s" || !u.At.Equal(now) || !c.check(u) {
			t.Errorf("%s: %q %+v %v", c.name, id, u, err)
		}
	}
	for _, bad := range []string{``, `[]`, `{"session_id":"../x"}`, `{"session_id":""}`, `{"session_id":1}`} {
		if _, _, err := FromClaude([]byte(bad), now); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAccounts(t *testing.T) {
	q := func(p float64) *session.Quota { return &session.Quota{UsedPercent: p} }
	shown := []session.Shown{
		{ID: "c1", Agent: session.AgentCodex, Usage: &session.Usage{At: now, FiveHour: q(1), Account: "plus"}},
		{ID: "a1", Agent: session.AgentClaude, Usage: &session.Usage{At: now.Add(-time.Minute), FiveHour: q(10)}},
		{ID: "a2", Agent: session.AgentClaude, Usage: &session.Usage{At: now, FiveHour: q(20)}},
		{ID: "a3", Agent: session.AgentClaude, Host: "box", Usage: &session.Usage{At: now, Weekly: q(5)}},
		{ID: "a4", Agent: session.AgentClaude, Usage: &session.Usage{At: now.Add(time.Hour)}}, // no quota: not an account reading
		{ID: "g1", Agent: session.AgentGemini},
	}
	got := Accounts(shown)
	if len(got) != 3 || got[0].Session != "a2" || got[1].Agent != session.AgentCodex || got[1].Account != "plus" || got[2].Host != "box" {
		t.Fatalf("%+v", got)
	}
	if !Stale(now.Add(-6*time.Minute), now) || Stale(now.Add(-time.Minute), now) {
		t.Error("staleness")
	}
	if !Reset(&session.Quota{ResetsAt: now}, now) || Reset(&session.Quota{}, now) {
		t.Error("reset")
	}
}

func FuzzFromClaude(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1796172559}}}`))
	f.Add([]byte(`{"session_id":"s","context_window":{"current_usage":{"input_tokens":-9}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, u, err := FromClaude(b, now)
		if err != nil {
			return
		}
		if !session.ValidID(id) {
			t.Fatalf("id %q", id)
		}
		for _, q := range []*session.Quota{u.FiveHour, u.Weekly} {
			if q != nil && (q.UsedPercent < 0 || q.UsedPercent > 1000) {
				t.Fatalf("percent %v", q.UsedPercent)
			}
		}
	})
}
