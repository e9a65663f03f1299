package driver

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestPlatformPackage(t *testing.T) {
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "@anthropic-ai/claude-code-linux-x64"},
		{"darwin", "arm64", "@anthropic-ai/claude-code-darwin-arm64"},
		{"linux", "arm64", "@anthropic-ai/claude-code-linux-arm64"},
	} {
		got, err := platformPackage(c.goos, c.goarch)
		if err != nil || got != c.want {
			t.Errorf("%s/%s: %q, %v", c.goos, c.goarch, got, err)
		}
	}
	if _, err := platformPackage("windows", "amd64"); err == nil {
		t.Error("windows accepted")
	}
}

// The state file marks onboarding done, the project trusted and the key
// approved by its last 20 characters — the shapes Claude Code 2.1.328 reads
// (checked by experiment: without them it shows its trust or key dialog).
func TestClaudeJSON(t *testing.T) {
	b, err := claudeJSON("/tmp/x/proj")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		HasCompletedOnboarding bool
		Projects               map[string]struct{ HasTrustDialogAccepted bool }
		CustomAPIKeyResponses  struct{ Approved, Rejected []string } `json:"customApiKeyResponses"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if !v.HasCompletedOnboarding || !v.Projects["/tmp/x/proj"].HasTrustDialogAccepted {
		t.Errorf("%s", b)
	}
	a := v.CustomAPIKeyResponses.Approved
	if len(a) != 1 || len(a[0]) != 20 || !strings.HasSuffix(TestAPIKey, a[0]) || v.CustomAPIKeyResponses.Rejected == nil {
		t.Errorf("approved %q rejected %v", a, v.CustomAPIKeyResponses.Rejected)
	}
}

// Nothing of the caller's environment but PATH reaches the CLI.
func TestIsolatedEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "real-key")
	t.Setenv("CLAUDE_CONFIG_DIR", "/home/me/.claude")
	t.Setenv("TMUX", "/tmp/tmux-0/default,1,0")
	env := isolatedEnv("/h", "/h/.claude", "/h/.mew", "/t", "http://127.0.0.1:1")
	seen := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := seen[k]; dup {
			t.Errorf("%s twice", k)
		}
		seen[k] = v
	}
	want := map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/h/.claude", "MEW_HOME": "/h/.mew",
		"ANTHROPIC_API_KEY": TestAPIKey, "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
		"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "PATH": os.Getenv("PATH")}
	for k, v := range want {
		if seen[k] != v {
			t.Errorf("%s=%q, want %q", k, seen[k], v)
		}
	}
	if _, ok := seen["TMUX"]; ok {
		t.Error("the caller's TMUX leaked")
	}
}

func TestExcerptKeepsTheBottom(t *testing.T) {
	screen := "top\n\nmiddle   \n" + strings.Repeat("x", 150) + "\n\n❯ prompt\n\n\n"
	got := Excerpt(screen, 3)
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || lines[0] != "middle" || lines[2] != "❯ prompt" || !strings.HasSuffix(lines[1], "…") {
		t.Fatalf("%q", got)
	}
}

func TestTimelineOrdersAndSplitsColumns(t *testing.T) {
	t0 := time.Unix(1000, 0)
	tl := NewTimeline(t0)
	tl.Addf(t0.Add(2*time.Second), "mew", "done by registry:idle")
	tl.Add(Entry{At: t0.Add(time.Second), Source: "registry", Text: "idle", Detail: "❯ \n  footer"})
	out := tl.String()
	i, j := strings.Index(out, "registry: idle"), strings.Index(out, "done by registry:idle")
	if i < 0 || j < 0 || i > j {
		t.Fatalf("order:\n%s", out)
	}
	if !strings.Contains(out, "+1.000s") || !strings.Contains(out, "│   footer") {
		t.Fatalf("format:\n%s", out)
	}
}

func TestRegChange(t *testing.T) {
	seen := time.UnixMilli(5000)
	c := RegChange{At: seen, File: "1.json", Raw: []byte(`{}`), Doc: &RegDoc{Status: "waiting", WaitingFor: "permission prompt", StatusUpdatedAt: 4800}}
	if c.String() != "waiting (permission prompt)" || !c.StatusAt().Equal(time.UnixMilli(4800)) {
		t.Errorf("%s %v", c, c.StatusAt())
	}
	// A statusUpdatedAt in the future (clock skew) is not believed.
	c.Doc.StatusUpdatedAt = 9000
	if !c.StatusAt().Equal(seen) {
		t.Errorf("%v", c.StatusAt())
	}
	if (RegChange{File: "1.json"}).String() != "1.json gone" {
		t.Error("gone")
	}
}

// fakeRun is a Run with only recorded observations, for the judging code.
func fakeRun(samples ...Sample) *Run {
	r := &Run{TL: NewTimeline(time.Unix(0, 0))}
	r.rec = newRecorder(r.TL)
	r.rec.reg = []RegChange{{Doc: &RegDoc{SessionID: "s1"}, Raw: []byte("{}")}}
	r.rec.samples = samples
	return r
}

func sample(startMs, endMs int, st session.State) Sample {
	s := Sample{Start: time.UnixMilli(int64(startMs)), End: time.UnixMilli(int64(endMs))}
	if st != "" {
		s.Sessions = []session.Shown{{ID: "s1", State: st}}
	}
	return s
}

func isDone(sh session.Shown, ok bool) bool { return ok && sh.State == session.Done }

func TestWaitMewBounds(t *testing.T) {
	ref := time.UnixMilli(1000)
	// Fast samples: the latency is known within one period.
	r := fakeRun(sample(900, 910, session.Working), sample(1010, 1020, session.Working),
		sample(1110, 1120, session.Working), sample(1210, 1220, session.Done))
	res := r.WaitMew(ref, 500*time.Millisecond, 0, isDone)
	if !res.OK || !res.OnGoal || !res.Certain || res.Lo != 110*time.Millisecond || res.Hi != 220*time.Millisecond {
		t.Fatalf("%+v", res)
	}
	// A slow sample that straddles the goal: not provably late.
	r = fakeRun(sample(1010, 1020, session.Working), sample(1400, 1900, session.Done))
	res = r.WaitMew(ref, 500*time.Millisecond, 0, isDone)
	if !res.OK || !res.OnGoal || res.Certain {
		t.Fatalf("straddling: %+v", res)
	}
	// Still working in a sample that began after the goal: provably late,
	// but within the ceiling (3×): reported, not failed.
	r = fakeRun(sample(1600, 1610, session.Working), sample(1700, 1710, session.Done))
	res = r.WaitMew(ref, 500*time.Millisecond, 0, isDone)
	if !res.OK || res.OnGoal || res.Certain || !res.Seen || res.Lo != 600*time.Millisecond {
		t.Fatalf("late: %+v", res)
	}
	// Still working after the ceiling: a failure.
	r = fakeRun(sample(2600, 2610, session.Working), sample(2700, 2710, session.Done))
	res = r.WaitMew(ref, 500*time.Millisecond, 0, isDone)
	if res.OK || res.OnGoal || !res.Seen || res.Lo != 1600*time.Millisecond {
		t.Fatalf("past the ceiling: %+v", res)
	}
	// Never: not seen; the session missing from a sample counts as not there.
	r = fakeRun(sample(1100, 1110, ""), sample(1200, 1210, session.Working))
	if res = r.WaitMew(ref, 100*time.Millisecond, 0, isDone); res.Seen || res.OK {
		t.Fatalf("never: %+v", res)
	}
	// Samples with errors are ignored.
	bad := sample(1100, 1110, session.Done)
	bad.Err = "boom"
	r = fakeRun(bad)
	if res = r.WaitMew(ref, 100*time.Millisecond, 0, isDone); res.Seen {
		t.Fatalf("error sample used: %+v", res)
	}
}

func TestMewDuringOnlyCountsWholeSamples(t *testing.T) {
	r := fakeRun(sample(900, 1010, session.Done), sample(1100, 1110, session.Working),
		sample(1200, 1210, session.Idle), sample(1990, 2010, session.Done))
	bad := r.MewDuring(time.UnixMilli(1000), time.UnixMilli(2000), func(sh session.Shown, ok bool) bool {
		return !ok || sh.State == session.Done || sh.State == session.Idle
	})
	if len(bad) != 1 || bad[0].Start != time.UnixMilli(1200) {
		t.Fatalf("%+v", bad)
	}
	if n := r.SamplesIn(time.UnixMilli(1000), time.UnixMilli(2000)); n != 2 {
		t.Fatalf("SamplesIn %d", n)
	}
}

// Over repeated runs a check's goal is judged by the percentiles of its
// bounds.
func TestSummarize(t *testing.T) {
	goal := 500 * time.Millisecond
	var ls []Latency
	for i := 1; i <= 20; i++ {
		lo, hi := time.Duration(i)*20*time.Millisecond, time.Duration(i)*30*time.Millisecond
		res := MewResult{Seen: true, Lo: lo, Hi: hi}
		judge(&res, goal)
		ls = append(ls, Latency{Test: "T", Check: "done", Goal: goal, Res: res})
	}
	ls = append(ls, Latency{Test: "T", Check: "never", Goal: goal})
	sum := Summarize(ls)
	if len(sum) != 2 {
		t.Fatalf("%+v", sum)
	}
	s := sum[0]
	// Hi: 30..600 ms, p95 = the 19th = 570 ms > goal; Lo: p95 380 ms ≤ goal.
	if s.Runs != 20 || s.Seen != 20 || s.HiMedian != 330*time.Millisecond || s.HiP95 != 570*time.Millisecond ||
		s.LoP95 != 380*time.Millisecond || s.Certain != 16 || s.OnGoal != 20 || s.Met() != "met~" {
		t.Fatalf("%+v %s", s, s.Met())
	}
	if sum[1].Met() != "never" || sum[1].Runs != 1 {
		t.Fatalf("%+v", sum[1])
	}
}

func TestSampleDurations(t *testing.T) {
	var ss []Sample
	for i := 1; i <= 20; i++ {
		ss = append(ss, sample(0, i*10, session.Working))
	}
	d := SampleDurations(ss)
	if d.N != 20 || d.Median != 110*time.Millisecond || d.Max != 200*time.Millisecond || d.P95 != 200*time.Millisecond {
		t.Fatalf("%+v", d)
	}
}

// The driver's observer hook goes next to Mew's entries; nothing else in
// settings.json changes meaning.
func TestAddObserverHooksKeepsWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	settings := dir + "/settings.json"
	before := `{"model":"x","hooks":{"Notification":[{"matcher":"*","hooks":[{"type":"command","command":"\"$HOME/.mew/bin/mew-hook\""}]}]}}`
	if err := os.WriteFile(settings, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := addObserverHooks(settings, dir+"/log.jsonl", []string{"Notification", "Stop"}, 5); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Model string
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	b, _ := os.ReadFile(settings)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	n := v.Hooks["Notification"]
	if v.Model != "x" || len(n) != 2 || n[0].Hooks[0].Command != `"$HOME/.mew/bin/mew-hook"` ||
		!strings.Contains(n[1].Hooks[0].Command, "'"+dir+"/log.jsonl'") || len(v.Hooks["Stop"]) != 1 {
		t.Fatalf("%s", b)
	}
	if err := addObserverHooks(settings, dir+"/a b", []string{"Stop"}, 5); err == nil {
		t.Error("a path with a space went into a shell command")
	}
}

// NoObserver leaves the CLI's settings as a person's with nothing
// installed: Gemini CLI draws any hook's status over its spinner row.
func TestNoObserverLeavesNoHooks(t *testing.T) {
	for _, no := range []bool{false, true} {
		r, _, err := prepare(Options{Agent: AgentGemini, APIURL: "http://127.0.0.1:1", Dir: t.TempDir(), NoObserver: no})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(r.Home + "/.gemini/settings.json")
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Hooks map[string]any }
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if hooked := len(v.Hooks) > 0; hooked == no {
			t.Errorf("NoObserver %v: settings.json has hooks %v:\n%s", no, hooked, b)
		}
	}
}

// Both kinds of samples are judged: a watcher that lags misses the goal
// even when the one-shot samples were on time, and past the ceiling (3×
// the goal) it fails the check.
func TestWaitMewJudgesBothKinds(t *testing.T) {
	ref := time.UnixMilli(1000)
	r := fakeRun(sample(1010, 1020, session.Working), sample(1110, 1120, session.Done))
	w := func(ms int, st session.State) Sample {
		s := sample(ms, ms, st)
		s.Mode = ModeWatch
		return s
	}
	r.rec.watched = []Sample{w(1050, session.Working), w(1700, session.Working), w(1800, session.Done)}
	res := r.WaitMew(ref, 500*time.Millisecond, 0, isDone)
	if res.OnGoal || !res.OK || !res.Seen || !res.Modes[ModeOnce].OnGoal || res.Modes[ModeWatch].OnGoal || res.Lo != 700*time.Millisecond {
		t.Fatalf("a late watcher (within the ceiling) was on goal, or failed: %+v", res)
	}
	r.rec.watched = []Sample{w(1050, session.Working), w(2700, session.Working), w(2800, session.Done)}
	if res = r.WaitMew(ref, 500*time.Millisecond, 0, isDone); res.OK || res.Modes[ModeWatch].OK || !res.Modes[ModeOnce].OK {
		t.Fatalf("a watcher past the ceiling passed: %+v", res)
	}
	r.rec.watched = []Sample{w(1050, session.Working), w(1150, session.Done)}
	if res = r.WaitMew(ref, 500*time.Millisecond, 0, isDone); !res.OK || !res.Certain {
		t.Fatalf("both on time: %+v", res)
	}
	// Bad samples of either kind count.
	bad := r.MewDuring(time.UnixMilli(1000), time.UnixMilli(2000), func(sh session.Shown, ok bool) bool { return ok && sh.State == session.Working })
	if len(bad) != 2 {
		t.Fatalf("MewDuring %d samples, want one of each kind", len(bad))
	}
}

// Two rows for one agent in one sample fail the run; one row each for two
// agents, or a sample with none, do not.
func TestRowProblems(t *testing.T) {
	one := sample(0, 10, session.Working)
	one.Sessions[0].Agent = "opencode"
	two := Sample{Start: time.UnixMilli(20), End: time.UnixMilli(30), Mode: ModeWatch, Sessions: []session.Shown{
		{ID: "run:42", Agent: "opencode", State: session.Working, Source: "screen:opencode/working#1"},
		{ID: "tmux:%0", Agent: "opencode", State: session.Working, Source: "screen:opencode/working#1"},
		{ID: "x", Agent: "claude", State: session.Idle},
	}}
	r := fakeRun(one, sample(40, 50, ""))
	if err := r.CheckRows(); err != nil {
		t.Fatalf("one row: %v", err)
	}
	r.rec.watched = []Sample{two}
	err := r.CheckRows()
	if err == nil || !strings.Contains(err.Error(), "2 rows for opencode: run:42 working") || !strings.Contains(err.Error(), "watch sample") {
		t.Fatalf("two rows: %v", err)
	}
	if got := RowsString(two); got != "rows claude×1 opencode×2" {
		t.Fatalf("RowsString %q", got)
	}
	if got := r.RowCounts(); !strings.Contains(got, "once: none in 1, opencode×1 in 1") || !strings.Contains(got, "watch: claude×1 opencode×2 in 1") {
		t.Fatalf("RowCounts %q", got)
	}
}

func TestShellLine(t *testing.T) {
	got := shellLine([]string{"/bin/mew", "run", "--", "codex", "--cd", "/a b", "it's", ""})
	if want := `/bin/mew run -- codex --cd '/a b' 'it'\''s' ''`; got != want {
		t.Fatalf("%s", got)
	}
}
