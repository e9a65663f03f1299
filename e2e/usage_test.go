package e2e

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// usageGoal: the quota and context reach `mew status --json` within this
// of the CLI's statusline redraw (the goal).
const usageGoal = time.Second

// gatewayToken is an unsigned JWT whose audience is "claude-gateway":
// Claude Code 2.1.328 reads the anthropic-ratelimit-unified-* headers only
// for a claude.ai login or for a gateway (ANTHROPIC_BASE_URL elsewhere
// than api.anthropic.com and ANTHROPIC_AUTH_TOKEN such a token; its
// extractQuotaStatusFromHeaders), and the stand-in cannot be a login.
func gatewayToken() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." +
		enc([]byte(fmt.Sprintf(`{"aud":"claude-gateway","exp":%d}`, time.Now().Add(24*time.Hour).Unix()))) + ".x"
}

// personsLine is what the person's own statusline script prints.
const personsLine = "PERSON-LINE 7f3a"

var personsLineRE = regexp.MustCompile(regexp.QuoteMeta(personsLine))

// personsStatusline is the person's script: it logs when it ran and what
// it was given (one JSON line each), then prints its line.
func personsStatusline(dir string) (script, log string) {
	script, log = filepath.Join(dir, "person-statusline.sh"), filepath.Join(dir, "person-statusline.log")
	body := "#!/bin/sh\nin=$(cat)\nprintf '%s %s\\n' \"$(date +%s.%N)\" \"$(printf '%s' \"$in\" | tr -d '\\n')\" >> '" + log + "'\nprintf '" + personsLine + "\\n'\n"
	os.WriteFile(script, []byte(body), 0o755)
	return script, log
}

// statuslineRun is one line of the person's log: when it ran, its input.
type statuslineRun struct {
	at    time.Time
	input map[string]json.RawMessage
}

func readStatuslineLog(path string) []statuslineRun {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []statuslineRun
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		ts, in, ok := strings.Cut(sc.Text(), " ")
		secs, err := strconv.ParseFloat(ts, 64)
		if !ok || err != nil {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(in), &m) != nil {
			continue
		}
		out = append(out, statuslineRun{at: time.Unix(0, int64(secs*1e9)), input: m})
	}
	return out
}

// topLevel is the raw bytes of each top-level value of a settings file.
func topLevel(t *testing.T, path string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestUsageStatuslineQuota: with Mew's statusline source installed over
// the person's own statusline, the real Claude Code's quota (the stand-in
// sends the rate-limit headers) and context reach `mew status --json`
// within a second of the CLI's redraw, the person's line still prints
// unchanged, and `mew uninstall` gives the person's statusLine back byte
// for byte.
func TestUsageStatuslineQuota(t *testing.T) {
	t.Parallel()
	s := need(t)
	api, err := fakeapi.Start(fakeapi.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	reset5h, reset7d := time.Now().Add(2*time.Hour).Unix(), time.Now().Add(72*time.Hour).Unix()
	api.SetHeaders(map[string]string{
		"anthropic-ratelimit-unified-status":               "allowed",
		"anthropic-ratelimit-unified-5h-status":            "allowed",
		"anthropic-ratelimit-unified-5h-utilization":       "0.42",
		"anthropic-ratelimit-unified-5h-reset":             strconv.FormatInt(reset5h, 10),
		"anthropic-ratelimit-unified-7d-status":            "allowed",
		"anthropic-ratelimit-unified-7d-utilization":       "0.91",
		"anthropic-ratelimit-unified-7d-reset":             strconv.FormatInt(reset7d, 10),
		"anthropic-ratelimit-unified-representative-claim": "five_hour",
		"anthropic-ratelimit-unified-reset":                strconv.FormatInt(reset5h, 10),
	})
	dir := t.TempDir()
	script, log := personsStatusline(dir)
	var settings string
	var personsValue []byte
	r, err := driver.Launch(driver.Options{
		Claude: s.claude, APIURL: api.URL, Dir: t.TempDir(), Args: []string{"--permission-mode", "default"},
		Mew: s.mew, Install: true,
		Setup: func(r *driver.Run) error {
			r.Env = append(r.Env, "ANTHROPIC_AUTH_TOKEN="+gatewayToken())
			// The person's statusLine, in their own spelling, before Mew's.
			settings = filepath.Join(r.ConfigDir, "settings.json")
			b, err := os.ReadFile(settings)
			if err != nil {
				return err
			}
			personsValue = []byte(`{ "type":"command",   "command": "` + script + `" }`)
			b = bytes.Replace(b, []byte("{"), []byte("{\n  \"statusLine\":"+string(personsValue)+",\n"), 1)
			if err := os.WriteFile(settings, b, 0o600); err != nil {
				return err
			}
			out, err := r.Mew("install", "--statusline", "--agent", "claude")
			r.TL.Addf(time.Now(), "note", "mew install --statusline: %s", strings.TrimSpace(out))
			return err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	sc := &scen{t: t, r: r, api: api}
	defer func() {
		r.Close()
		if t.Failed() {
			t.Logf("timeline:\n%s", r.TL.String())
		}
	}()
	if err := r.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	if v := topLevel(t, settings)["statusLine"]; !bytes.Contains(v, []byte("--statusline")) {
		t.Fatalf("Mew's statusline is not installed: %s", v)
	}
	// The person's line shows before any reply: Mew's command prints it.
	if _, err := r.WaitScreen(r.Started, personsLineRE, ready); err != nil {
		t.Fatal(err)
	}
	sent := sc.submit(fakeapi.Prompt(fakeapi.Text))
	sc.turnEnd(sent)

	// The CLI's redraw that first carries the quota: the person's script
	// logs it, with the very input the CLI gave Mew's command.
	var redraw statuslineRun
	deadline := time.Now().Add(turn)
	for time.Now().Before(deadline) && redraw.at.IsZero() {
		for _, run := range readStatuslineLog(log) {
			if len(run.input["rate_limits"]) > 0 && string(run.input["rate_limits"]) != "null" {
				redraw = run
				break
			}
		}
		if redraw.at.IsZero() {
			time.Sleep(100 * time.Millisecond) // polls a file the CLI's child writes; no event to wait on
		}
	}
	if redraw.at.IsZero() {
		t.Fatalf("the CLI never gave its statusline rate_limits; its runs: %d; screen:\n%s", len(readStatuslineLog(log)), driver.Excerpt(r.Screen(), 12))
	}
	var rl struct {
		FiveHour struct {
			UsedPercentage float64 `json:"used_percentage"`
			ResetsAt       int64   `json:"resets_at"`
		} `json:"five_hour"`
		SevenDay struct {
			UsedPercentage float64 `json:"used_percentage"`
		} `json:"seven_day"`
	}
	json.Unmarshal(redraw.input["rate_limits"], &rl)
	t.Logf("the CLI's rate_limits: %s; context_window: %s", redraw.input["rate_limits"], redraw.input["context_window"])
	if rl.FiveHour.UsedPercentage <= 0 || rl.FiveHour.ResetsAt != reset5h {
		t.Fatalf("the CLI's rate_limits are not the headers': %s", redraw.input["rate_limits"])
	}
	res := sc.expect("statusline redraw → quota and context in mew status", redraw.at, usageGoal, func(sh session.Shown, listed bool) bool {
		u := sh.Usage
		return listed && u != nil && u.FiveHour != nil && u.FiveHour.UsedPercent == rl.FiveHour.UsedPercentage &&
			u.FiveHour.ResetsAt.Unix() == reset5h && u.Weekly != nil && u.Weekly.UsedPercent == rl.SevenDay.UsedPercentage &&
			u.ContextSize > 0 && u.CostUSD != nil
	})
	if res.Seen {
		t.Logf("shown usage: %+v", *res.Shown.Usage)
	}
	// The person's line is still what shows, unchanged.
	if !personsLineRE.MatchString(r.Screen()) {
		t.Errorf("the person's statusline is gone from the screen:\n%s", driver.Excerpt(r.Screen(), 12))
	}
	if out, err := r.Mew("usage"); err != nil || !strings.Contains(out, "claude") || !strings.Contains(out, "5h") {
		t.Errorf("mew usage: %v\n%s", err, out)
	} else {
		t.Logf("mew usage:\n%s", out)
	}

	out, err := r.Mew("uninstall", "--agent", "claude")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := topLevel(t, settings)["statusLine"]; !bytes.Equal(got, personsValue) {
		t.Errorf("after uninstall, statusLine is %q, want the person's %q byte for byte", got, personsValue)
	}
}

// TestCodexQuota: the stand-in sends the rate-limit headers the real
// Codex reads; its rollout's token_count carries them, and Mew shows the
// account's 5 h and weekly quota and the session's context.
func TestCodexQuota(t *testing.T) {
	s, api := startCodexAPI(t, codexOpts{})
	reset5h, reset7d := time.Now().Add(3*time.Hour).Unix(), time.Now().Add(96*time.Hour).Unix()
	api.SetHeaders(map[string]string{
		"x-codex-primary-used-percent":     "42.5",
		"x-codex-primary-window-minutes":   "300",
		"x-codex-primary-reset-at":         strconv.FormatInt(reset5h, 10),
		"x-codex-secondary-used-percent":   "91",
		"x-codex-secondary-window-minutes": "10080",
		"x-codex-secondary-reset-at":       strconv.FormatInt(reset7d, 10),
	})
	sent := s.submit(fakeresponses.Prompt(fakeresponses.Text))
	end := s.rolloutAfter(sent, "task_complete")
	res := s.expect("token_count with the quota → shown", end.At, usageGoal, func(sh session.Shown, listed bool) bool {
		u := sh.Usage
		return listed && u != nil && u.FiveHour != nil && u.FiveHour.UsedPercent == 42.5 && u.FiveHour.ResetsAt.Unix() == reset5h &&
			u.Weekly != nil && u.Weekly.UsedPercent == 91 && u.ContextSize > 0
	})
	if res.Seen {
		t.Logf("shown usage: %+v", *res.Shown.Usage)
	}
	if out, err := s.r.Mew("usage", "--json"); err != nil || !strings.Contains(out, `"agent": "codex"`) {
		t.Errorf("mew usage --json: %v\n%s", err, out)
	}
}
