package rules_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// The embedded rules are scored against the truth each recorded real run
// gives (testdata/fixtures; see AGENTS-README.md there and the Claude
// README). The floors are the product's: below them Mew would be wrong
// about "needs you" too often.
const (
	floorClaude   = 0.90
	floorCodex    = 0.95
	floorOpenCode = 0.94
	floorGemini   = 0.94
	// settle: samples this close to a change of the truth are left out
	// (the recordings' own rule: a screen and its agent's events are never
	// at exactly the same instant).
	settle = 0.5
	// sampleEvery: how often OpenCode and Gemini screens are sampled.
	sampleEvery = 0.1
)

const fixtures = "../testdata/fixtures"

// score counts agreeing samples and keeps a few misses to show.
type score struct {
	agree, total int
	misses       []string
}

func (s *score) add(ok bool, what string) {
	s.total++
	if ok {
		s.agree++
		return
	}
	if len(s.misses) < 12 {
		s.misses = append(s.misses, what)
	}
}

func (s score) ratio() float64 {
	if s.total == 0 {
		return 0
	}
	return float64(s.agree) / float64(s.total)
}

func (s score) check(t *testing.T, name string, floor float64) {
	t.Helper()
	t.Logf("screen rules score %-22s %3d/%3d = %5.1f%% (floor %.0f%%)", name, s.agree, s.total, 100*s.ratio(), 100*floor)
	fmt.Printf("screen rules score %-22s %3d/%3d = %5.1f%% (floor %.0f%%)\n", name, s.agree, s.total, 100*s.ratio(), 100*floor)
	if s.total == 0 {
		t.Fatalf("%s: no samples scored", name)
	}
	if s.ratio() < floor {
		t.Errorf("%s scores %.1f%%, below the %.0f%% floor; misses:\n  %s", name, 100*s.ratio(), 100*floor, strings.Join(s.misses, "\n  "))
	}
}

// agreeWith maps the truth's vocabulary onto screen states.
func agreeWith(truth, got string) bool {
	switch truth {
	case "busy":
		truth = session.ScreenWorking
	case "waiting":
		truth = session.ScreenBlocked
	}
	return truth == got
}

func readLines(t *testing.T, path string, each func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			each(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func at(sec float64) time.Time { return time.Unix(0, 0).Add(time.Duration(sec * float64(time.Second))) }

// TestScoreClaude: every screens.jsonl prefix of screen.raw, replayed in
// order through one tracker, against the registry status recorded with it.
func TestScoreClaude(t *testing.T) {
	set := rules.Embedded().Set("claude")
	runs, _ := filepath.Glob(filepath.Join(fixtures, "claude-code-2.1.328", "*", "screen.raw"))
	var s score
	for _, rawPath := range runs {
		dir := filepath.Dir(rawPath)
		raw, err := os.ReadFile(rawPath)
		if err != nil {
			t.Fatal(err)
		}
		var tr screen.Tracker
		readLines(t, filepath.Join(dir, "screens.jsonl"), func(line []byte) {
			var p struct {
				T        float64 `json:"t"`
				Registry *string `json:"registry"`
				RawBytes int     `json:"raw_bytes"`
			}
			if err := json.Unmarshal(line, &p); err != nil {
				t.Fatal(err)
			}
			e := screen.New(32, 120)
			e.Write(raw[:p.RawBytes])
			snap := e.Snapshot()
			tr.Observe(set, rules.Frame{Rows: snap.Rows, Title: snap.Title}, at(p.T))
			if p.Registry == nil {
				return // no status recorded yet
			}
			s.add(agreeWith(*p.Registry, tr.State.State), fmt.Sprintf("%s t=%.2f registry %s, screen %s (%s)", filepath.Base(dir), p.T, *p.Registry, tr.State.State, tr.State.Rule))
		})
	}
	s.check(t, "claude 2.1.328", floorClaude)
}

// codexTruth is the truth of a Codex recording (AGENTS-README): blocked
// from the PermissionRequest hook to the answering key, working from
// task_started to task_complete/turn_aborted, exited from the quitting key
// or the kill, idle otherwise.
type change struct {
	t     float64
	state string
}

func truthAt(changes []change, t float64) (state string, near bool) {
	state = session.ScreenIdle
	for _, c := range changes {
		if math.Abs(c.t-t) < settle {
			near = true
		}
		if c.t <= t {
			state = c.state
		}
	}
	return state, near
}

func codexTruth(t *testing.T, dir string) []change {
	var hooks, keys, working []change
	readLines(t, filepath.Join(dir, "hooks.jsonl"), func(line []byte) {
		var h struct {
			Start float64 `json:"start"`
			Event string  `json:"event"`
		}
		json.Unmarshal(line, &h)
		if h.Event == "PermissionRequest" {
			hooks = append(hooks, change{h.Start, session.ScreenBlocked})
		}
	})
	readLines(t, filepath.Join(dir, "keys.jsonl"), func(line []byte) {
		var k struct {
			T float64 `json:"t"`
		}
		json.Unmarshal(line, &k)
		keys = append(keys, change{k.T, ""})
	})
	readLines(t, filepath.Join(dir, "rollout.jsonl"), func(line []byte) {
		var r struct {
			Seen  float64 `json:"seen"`
			Ptype *string `json:"ptype"`
		}
		json.Unmarshal(line, &r)
		if r.Ptype == nil {
			return
		}
		switch *r.Ptype {
		case "task_started":
			working = append(working, change{r.Seen, session.ScreenWorking})
		case "task_complete", "turn_aborted":
			working = append(working, change{r.Seen, session.ScreenIdle})
		}
	})
	var marks struct {
		ExitedAt float64 `json:"exited_at"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "marks.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(data, &marks)

	out := append([]change(nil), working...)
	for _, h := range hooks {
		out = append(out, h)
		// The wait ends at the first key sent after the dialog appeared;
		// the turn goes on working.
		for _, k := range keys {
			if k.t > h.t {
				out = append(out, change{k.t, session.ScreenWorking})
				break
			}
		}
	}
	if marks.ExitedAt > 0 {
		out = append(out, change{marks.ExitedAt, session.ScreenExited})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].t < out[j].t })
	// Nothing follows exited.
	for i, c := range out {
		if c.state == session.ScreenExited {
			out = out[:i+1]
			break
		}
	}
	return out
}

// tuiAlive reads procs.jsonl: whether the Codex TUI (the `codex` process
// with a terminal) was in the process table at or before each time.
func tuiAlive(t *testing.T, dir string) func(float64) bool {
	type sample struct {
		t     float64
		alive bool
	}
	var samples []sample
	readLines(t, filepath.Join(dir, "procs.jsonl"), func(line []byte) {
		var p struct {
			T     float64 `json:"t"`
			Procs []struct {
				Tty  string `json:"tty"`
				Comm string `json:"comm"`
				Args string `json:"args"`
			} `json:"procs"`
		}
		json.Unmarshal(line, &p)
		alive := false
		for _, pr := range p.Procs {
			if pr.Tty != "" && pr.Tty != "?" && (pr.Comm == "codex" || strings.Contains(pr.Args, "bin/codex")) {
				alive = true
			}
		}
		samples = append(samples, sample{p.T, alive})
	})
	return func(at float64) bool {
		alive := true // until the first sample says otherwise
		for _, s := range samples {
			if s.t <= at {
				alive = s.alive
			}
		}
		return alive
	}
}

// TestScoreCodex: every 100 ms sample of the five Codex runs (title and
// screen as tmux captured them, the process table), left out within 0.5 s
// of a change of the truth.
func TestScoreCodex(t *testing.T) {
	book := rules.Embedded()
	set := book.Set("codex")
	runs, _ := filepath.Glob(filepath.Join(fixtures, "codex-0.169.0", "*", "samples.jsonl"))
	var s score
	for _, path := range runs {
		dir := filepath.Dir(path)
		truth := codexTruth(t, dir)
		alive := tuiAlive(t, dir)
		var tr screen.Tracker
		readLines(t, path, func(line []byte) {
			var p struct {
				T      float64 `json:"t"`
				Title  string  `json:"title"`
				Screen string  `json:"screen"`
			}
			json.Unmarshal(line, &p)
			data, err := os.ReadFile(filepath.Join(dir, "screens", p.Screen+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			tr.Observe(set, rules.Frame{Rows: strings.Split(string(data), "\n"), Title: p.Title}, at(p.T))
			got := tr.State.State
			if !alive(p.T) {
				got = session.ScreenExited // the process source: the TUI is gone
			}
			want, near := truthAt(truth, p.T)
			if near {
				return
			}
			s.add(agreeWith(want, got), fmt.Sprintf("%s t=%.2f truth %s, screen %s (%s) title %q", filepath.Base(dir), p.T, want, got, tr.State.Rule, p.Title))
		})
	}
	s.check(t, "codex 0.169.0", floorCodex)
}

// refTruth reads the truth of an OpenCode or Gemini run: the agent's own
// events as the recording lists them in score.json's ref (seconds from
// the start; OpenCode's are epoch times).
func refTruth(t *testing.T, dir string) []change {
	var meta struct {
		T0 float64 `json:"t0"`
	}
	var sc struct {
		Ref [][3]any `json:"ref"`
	}
	for name, v := range map[string]any{"meta.json": &meta, "score.json": &sc} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatal(err)
		}
	}
	var out []change
	for _, r := range sc.Ref {
		tm, _ := r[0].(float64)
		st, _ := r[1].(string)
		if ev, _ := r[2].(string); strings.Contains(ev, "MessageAbortedError") {
			// OpenCode reports Esc on a running turn as an error; it is the
			// person stopping the turn: idle, as Mew reports it.
			st = session.ScreenIdle
		}
		if tm > 1e9 {
			tm -= meta.T0
		}
		out = append(out, change{tm, st})
	}
	return out
}

func scoreScreensJSONL(t *testing.T, agent, glob string) score {
	set := rules.Embedded().Set(agent)
	runs, _ := filepath.Glob(glob)
	var s score
	for _, path := range runs {
		dir := filepath.Dir(path)
		truth := refTruth(t, dir)
		type frame struct {
			t      float64
			screen string
		}
		var frames []frame
		readLines(t, path, func(line []byte) {
			var p struct {
				T      float64 `json:"t"`
				Screen string  `json:"screen"`
			}
			json.Unmarshal(line, &p)
			frames = append(frames, frame{p.T, p.Screen})
		})
		if len(frames) == 0 {
			continue
		}
		end := frames[len(frames)-1].t
		if last := truth[len(truth)-1].t; last > end {
			end = last
		}
		var tr screen.Tracker
		next := 0
		for i := 0; float64(i)*sampleEvery <= end+1; i++ {
			now := float64(i) * sampleEvery
			changed := false
			for next < len(frames) && frames[next].t <= now+1e-9 {
				next++
				changed = true
			}
			if changed {
				tr.Observe(set, rules.Frame{Rows: strings.Split(frames[next-1].screen, "\n")}, at(now))
			}
			want, near := truthAt(truth, now)
			if near || !tr.Seen {
				continue // before the agent drew its first screen there is nothing to read
			}
			s.add(agreeWith(want, tr.State.State), fmt.Sprintf("%s t=%.1f truth %s, screen %s (%s)", filepath.Base(dir), now, want, tr.State.State, tr.State.Rule))
		}
	}
	return s
}

func TestScoreOpenCode(t *testing.T) {
	s := scoreScreensJSONL(t, "opencode", filepath.Join(fixtures, "opencode-1.18.33", "*", "screens.jsonl"))
	s.check(t, "opencode 1.18.33", floorOpenCode)
}

func TestScoreGemini(t *testing.T) {
	s := scoreScreensJSONL(t, "gemini", filepath.Join(fixtures, "gemini-cli-0.61.0", "*", "screens.jsonl"))
	s.check(t, "gemini-cli 0.61.0", floorGemini)
}
