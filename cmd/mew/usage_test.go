package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
)

// The statusline wrapper's reading of a hooked session reaches `mew
// status --json` and `mew usage`, through the real binaries.
func TestUsageFromStatuslineThroughTheCLI(t *testing.T) {
	c := newCLI(t)
	c.env = append(c.env, "MEW_PROCSCAN=off", "MEW_TMUX_SOCKET="+t.TempDir()+"/none")
	c.hookEvent(t, `{"session_id":"use-1","hook_event_name":"UserPromptSubmit","cwd":"/p/webapp","prompt":"go"}`)
	sl := exec.Command(c.hook, hookbin.StatuslineFlag)
	sl.Env = c.env
	// Resets ahead of now: a reset already past reads as no reading.
	fiveHourReset := time.Now().Add(3 * time.Hour).Truncate(time.Second).UTC()
	weekReset := time.Now().Add(5 * 24 * time.Hour).Unix()
	sl.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":"use-1","cost":{"total_cost_usd":1.5},"context_window":{"context_window_size":200000,"used_percentage":37},`+
		`"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":%d},"seven_day":{"used_percentage":93,"resets_at":%d}}}`, fiveHourReset.Unix(), weekReset))
	if out, err := sl.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("statusline with no command of the person's: %v %q", err, out)
	}
	out, _, code := c.run(t, "status", "--json")
	var shown []struct {
		ID    string `json:"id"`
		Usage *struct {
			ContextPercent float64 `json:"context_percent"`
			CostUSD        float64 `json:"cost_usd"`
			FiveHour       struct {
				UsedPercent float64 `json:"used_percent"`
				ResetsAt    string  `json:"resets_at"`
			} `json:"five_hour"`
		} `json:"usage"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || len(shown) != 1 || shown[0].Usage == nil {
		t.Fatalf("mew status --json (%d):\n%s", code, out)
	}
	if u := shown[0].Usage; u.ContextPercent != 37 || u.CostUSD != 1.5 || u.FiveHour.UsedPercent != 42 || u.FiveHour.ResetsAt != fiveHourReset.Format(time.RFC3339) {
		t.Errorf("usage: %+v", *u)
	}
	table, _, code := c.run(t, "usage")
	for _, want := range []string{"claude", "5h", "42%", "week", "93%", "37% of 200k", "$1.50"} {
		if code != 0 || !strings.Contains(table, want) {
			t.Errorf("mew usage has no %q:\n%s", want, table)
		}
	}
	js, _, _ := c.run(t, "usage", "--json")
	var rep struct {
		Accounts []struct {
			Agent   string `json:"agent"`
			Session string `json:"session"`
		} `json:"accounts"`
	}
	if json.Unmarshal([]byte(js), &rep) != nil || len(rep.Accounts) != 1 || rep.Accounts[0].Session != "use-1" {
		t.Errorf("mew usage --json:\n%s", js)
	}
}
