package replay_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/replay"
	"github.com/mew-dev/mew/rules"
)

// codexEnds is how each recorded Codex run's turn ended
// (testdata/fixtures/AGENTS-README.md, the runs' table).
var codexEnds = map[string]string{
	"a-plain":     "done",
	"b-approve":   "done",
	"d-interrupt": "idle",
	"e-ctrlc":     "done",
	"f-error500":  "failed",
}

// The replay of each recorded Codex run prints the recorded states at the
// recorded moments (marks.json): working at b1, waiting(permission) at w1
// (then working again), the run's end at i1, exited at x1. A hook fires a
// little before Codex draws its dialog or ends its turn on screen, so a
// change may lead its mark by up to the settle time; it may lag by one
// Step of the pipeline.
func TestCodexRunsPrintTheRecordedStates(t *testing.T) {
	runs, err := fixture.LoadCodex(fixture.CodexRoot("0.169.0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(codexEnds) {
		t.Fatalf("%d runs recorded, %d described here", len(runs), len(codexEnds))
	}
	for _, r := range runs {
		t.Run(r.Name, func(t *testing.T) {
			got, err := replay.CodexRun(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			type want struct {
				mark, label string
			}
			wants := []want{{"b1", "working"}}
			if _, ok := r.Marks["w1"]; ok {
				wants = append(wants, want{"w1", "waiting(permission)"}, want{"", "working"})
			}
			wants = append(wants, want{"i1", codexEnds[r.Name]}, want{"x1", "exited"})
			labels := replay.Labels(got)
			if len(got) != len(wants) {
				t.Fatalf("states %v, want %d changes %v", labels, len(wants), wants)
			}
			for i, w := range wants {
				if labels[i] != w.label {
					t.Errorf("change %d: %s (%s), want %s", i, labels[i], got[i].Source, w.label)
				}
				if w.mark == "" {
					continue
				}
				d := got[i].T - r.Marks[w.mark]
				if d < -0.5 || d > replay.Step.Seconds()+0.35 {
					t.Errorf("%s at %.3f s, the recording's %s at %.3f s", labels[i], got[i].T, w.mark, r.Marks[w.mark])
				}
			}
		})
	}
}

// A Codex rollout as Codex writes it (each line at its own timestamp, no
// hooks, no process table) replays to what the rollout says: the turn
// started, then how it ended.
func TestCodexRolloutFile(t *testing.T) {
	for name, end := range codexEnds {
		t.Run(name, func(t *testing.T) {
			r, err := recording.LoadCodexRun(filepath.Join(fixture.CodexRoot("0.169.0"), name))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, l := range r.Rollout {
				// The recorder cut lines longer than 600 bytes short; a real
				// rollout has whole lines. None of the cut ones bear on the
				// state, but the session_meta is needed whole: rebuild it.
				if json.Valid([]byte(l.Line)) {
					b.WriteString(l.Line + "\n")
				} else if strings.Contains(l.Line, `"type":"session_meta"`) {
					id := l.File[len(l.File)-len("01a22f14-9a6c-76f1-9739-9d3cb1621146.jsonl") : len(l.File)-len(".jsonl")]
					fmt.Fprintf(&b, `{"timestamp":%q,"type":"session_meta","payload":{"id":%q,"cwd":"/Users/dev/proj"}}`+"\n", tsOf(t, l.Line), id)
				}
			}
			path := filepath.Join(t.TempDir(), "rollout.jsonl")
			os.WriteFile(path, []byte(b.String()), 0o600)
			got, err := replay.File(path, "codex", rules.Embedded())
			if err != nil {
				t.Fatal(err)
			}
			labels := replay.Labels(got)
			if len(labels) < 2 || labels[len(labels)-1] != end || !contains(labels, "working") {
				t.Fatalf("states %v (%+v), want working … %s", labels, got, end)
			}
		})
	}
}

func tsOf(t *testing.T, line string) string {
	const key = `{"timestamp":"`
	if !strings.HasPrefix(line, key) {
		t.Fatalf("line without a leading timestamp: %.80s", line)
	}
	rest := line[len(key):]
	return rest[:strings.IndexByte(rest, '"')]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The replay of each recorded Claude Code run (hooks and registry) says
// at every checkpoint of expect.jsonl what the checkpoint says.
func TestClaudeEventsMeetTheCheckpoints(t *testing.T) {
	runs, err := fixture.Load(fixture.Root("2.1.328"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		t.Run(r.Name, func(t *testing.T) {
			got, err := replay.Events(r.Events, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, cp := range r.Checkpoints {
				want := cp.State
				if cp.Reason != "" {
					want += "(" + cp.Reason + ")"
				}
				if s := stateAt(got, cp.At); s != want {
					t.Errorf("at %.2f s: %s, want %s (changes %v)", cp.At, s, want, got)
				}
			}
		})
	}
}

func stateAt(cs []replay.Change, at float64) string {
	s := "not listed"
	for i, c := range cs {
		if c.T <= at+1e-9 {
			s = replay.Labels(cs[i : i+1])[0]
		}
	}
	return s
}

// Screens replay through the agent's rules and combine: Gemini's
// recorded approval shows as a wait, the finished turn as done (the
// screen alone decides: idle after a turn ran), the goodbye as exited.
func TestGeminiScreens(t *testing.T) {
	got, err := replay.File(filepath.Join(fixture.Dir("gemini-cli-0.61.0"), "perm-allow", "screens.jsonl"), "gemini", rules.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"idle", "working", "waiting(permission)", "working", "done", "exited"}
	if l := replay.Labels(got); fmt.Sprint(l) != fmt.Sprint(want) {
		t.Fatalf("states %v, want %v", l, want)
	}
	for _, c := range got {
		if !strings.HasPrefix(c.Source, "screen:gemini/") || c.T < 0 || math.IsNaN(c.T) {
			t.Fatalf("change %+v: want a gemini screen rule as its source", c)
		}
	}
}

// Bad input is refused with a reason, and nothing is replayed.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	for _, c := range []struct {
		name, agent, body, want string
	}{
		{"a.txt", "", "hello\n", "not a JSON object"},
		{"b.jsonl", "", `{"timestamp":"2026-12-01T00:00:00Z","type":"event_msg"}` + "\n", "--agent codex"},
		{"c.jsonl", "codex", `{"timestamp":"2026-12-01T00:00:00Z","type":"event_msg"}` + "\n", "session_meta"},
		{"d.jsonl", "", `{"t":1,"source":"hook","doc":{"hook_event_name":"Stop"}}` + "\n", "no session id"},
		{"e.jsonl", "", `{"t":1,"screen":"x"}` + "\n", "--agent"},
		{"f.jsonl", "", `{"t":1,"source":"email","doc":{}}` + "\n", `want "hook" or "registry"`},
	} {
		_, err := replay.File(write(c.name, c.body), c.agent, rules.Embedded())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// Qwen Code's recorded hooks (Claude-format, with --agent=qwen) replay to
// the run's turns: done after the first turn, waiting(permission) at each
// PermissionRequest, idle at the idle_prompt that follows the first one's
// Esc (issue 35: it stayed waiting until the next prompt), working once the
// second call was allowed (Qwen fires PreToolUse only then), done, failed
// after the retries (StopFailure), exited at SessionEnd.
func TestQwenHooks(t *testing.T) {
	got, err := replay.File(filepath.Join(fixture.Dir("qwen-code-0.24.4"), "run-qw3", "hook-events.jsonl"), "qwen", rules.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	want := "idle working done working waiting(permission) idle working waiting(permission) working done working failed exited"
	if l := strings.Join(replay.Labels(got), " "); l != want {
		t.Fatalf("states\n %s\nwant\n %s\n%+v", l, want, got)
	}
	for _, c := range got {
		if !strings.HasPrefix(c.Source, "hook:") {
			t.Fatalf("%+v: want a hook as the source", c)
		}
	}
}

// Copilot CLI's recorded hooks (its camelCase events, each named by the
// census's command line as Mew's hooks file names it) replay to the run's
// turns: done, waiting(permission) from permissionRequest, no hook for the
// Esc that denied it (the session log and the screen say so: waiting here
// until the next prompt), working once allowed, done, working through the
// retries (errorOccurred, recoverable) and never failed (the final error
// is only in the session log), exited at sessionEnd.
func TestCopilotHooks(t *testing.T) {
	got, err := replay.File(filepath.Join(fixture.Dir("copilot-1.0.102"), "run-cop3", "hook-events.jsonl"), "copilot", rules.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	want := "idle working done working waiting(permission) working waiting(permission) working done working exited"
	if l := strings.Join(replay.Labels(got), " "); l != want {
		t.Fatalf("states\n %s\nwant\n %s\n%+v", l, want, got)
	}
}

// Kilo's recorded plugin events (OpenCode's, with --agent=kilo) replay to
// its turns: the permission wait, the reject (Esc) that ends the turn's
// wait, and idle, not failed or done, after Esc Esc stopped the retries.
func TestKiloPluginEvents(t *testing.T) {
	got, err := replay.File(filepath.Join(fixture.Dir("kilo-7.7.7"), "run-ki1"), "kilo", rules.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	want := "idle working done working waiting(permission) idle working done working idle"
	if l := strings.Join(replay.Labels(got), " "); l != want {
		t.Fatalf("states\n %s\nwant\n %s", l, want)
	}
}

// Cline's recorded hook files' payloads (with --agent=cline) replay to its
// turns: working from TaskStart, done at TaskComplete, working through
// both tool calls (the dialog has no event: only the screen shows the
// wait), failed at TaskError after the retries.
func TestClineHooks(t *testing.T) {
	got, err := replay.File(filepath.Join(fixture.Dir("cline-3.0.65"), "run-cl2", "hook-events.jsonl"), "cline", rules.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	want := "working done working done working done working failed"
	if l := strings.Join(replay.Labels(got), " "); l != want {
		t.Fatalf("states\n %s\nwant\n %s\n%+v", l, want, got)
	}
}
