package codex

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestTokenCountQuota(t *testing.T) {
	line := `{"timestamp":"2026-12-01T00:50:26.585Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":1500},"last_token_usage":{"input_tokens":1000,"total_tokens":1200},"model_context_window":258400},` +
		`"rate_limits":{"limit_id":"codex","primary":{"used_percent":42.5,"window_minutes":300,"resets_at":1790000000},"secondary":{"used_percent":93,"window_minutes":10080,"resets_at":1790500000},"plan_type":"plus"}}}`
	l, ok := ParseLine([]byte(line))
	if !ok || l.Event != "token_count" || l.Usage == nil {
		t.Fatalf("%+v %v", l, ok)
	}
	var st session.LogState
	Fold(&st, l)
	u := st.Usage
	if u == nil || u.FiveHour == nil || u.FiveHour.UsedPercent != 42.5 || !u.FiveHour.ResetsAt.Equal(time.Unix(1790000000, 0)) ||
		u.Weekly == nil || u.Weekly.UsedPercent != 93 || u.TotalTokens != 1500 || u.ContextSize != 258400 || u.ContextUsed != 1200 ||
		u.ContextPercent == nil || u.Account != "plus" || u.CostUSD != nil {
		t.Fatalf("usage %+v", u)
	}
	if st.State != "" {
		t.Errorf("a token_count decided the state: %q", st.State)
	}
	// A later reply without the headers keeps the account's quota.
	later := `{"timestamp":"2026-12-01T00:51:00Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":2000},"model_context_window":258400},"rate_limits":{"primary":null,"secondary":null}}}`
	l2, _ := ParseLine([]byte(later))
	Fold(&st, l2)
	if st.Usage.TotalTokens != 2000 || st.Usage.FiveHour == nil || st.Usage.FiveHour.UsedPercent != 42.5 {
		t.Fatalf("after a reply without limits: %+v", st.Usage)
	}
	// A window of another length is not named 5 h or weekly.
	odd := `{"timestamp":"2026-12-01T00:52:00Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":10,"window_minutes":60}}}}`
	if l3, ok := ParseLine([]byte(odd)); ok {
		t.Fatalf("a reading of an unnamed window only: %+v", l3.Usage)
	}
}

// The recorded runs (a stand-in API that sends no rate-limit headers, and
// here a turn interrupted before any reply) have a token_count with
// neither tokens nor limits: it gives no reading at all, nothing made up.
// (The recordings clip longer lines at 600 bytes; this one is whole.)
func TestTokenCountFixtureWithoutFigures(t *testing.T) {
	f, err := os.Open("../../testdata/fixtures/codex-0.169.0/d-interrupt/rollout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := 0
	for sc.Scan() {
		var w struct {
			Ptype string `json:"ptype"`
			Line  string `json:"line"`
		}
		if json.Unmarshal(sc.Bytes(), &w) != nil || w.Ptype != "token_count" {
			continue
		}
		seen++
		if l, ok := ParseLine([]byte(w.Line)); ok || l.Usage != nil {
			t.Fatalf("a reading from %s: %+v", w.Line, l.Usage)
		}
	}
	if seen == 0 {
		t.Fatal("no token_count in the recording")
	}
}
