package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/e2e/driver"
)

const shared = "../../../shared/fixtures/claude-code-2.1.328"

func readEvents(t *testing.T, path string) []event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("shared fixtures not here: %v", err)
	}
	defer f.Close()
	var evs []event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	return evs
}

// states collapses checkpoints to their sequence of distinct states.
func states(cps []checkpoint) []string {
	var out []string
	for _, c := range cps {
		s := c.State
		if c.Reason != "" {
			s += "(" + c.Reason + ")"
		}
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// The checkpoints derived from the registry and hooks of the hand-checked
// 2.1.328 fixtures go through the same states as their expect.jsonl (which
// omits the fresh session's idle).
func TestDeriveCheckpointsAgreesWithTheSharedFixtures(t *testing.T) {
	for _, name := range []string{"permission", "ask", "subagent", "interrupt", "question-exit"} {
		t.Run(name, func(t *testing.T) {
			evs := readEvents(t, filepath.Join(shared, name, "events.jsonl"))
			var want []checkpoint
			b, err := os.ReadFile(filepath.Join(shared, name, "expect.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var c checkpoint
				if err := json.Unmarshal([]byte(l), &c); err != nil {
					t.Fatal(err)
				}
				want = append(want, c)
			}
			got := deriveCheckpoints(evs)
			g := states(got)
			if len(g) > 0 && g[0] == "idle" {
				g = g[1:]
			}
			if strings.Join(g, " ") != strings.Join(states(want), " ") {
				t.Errorf("derived %v\nexpect  %v\n(checkpoints %+v)", g, states(want), got)
			}
			for i := 1; i < len(got); i++ {
				if got[i].At <= got[i-1].At {
					t.Errorf("checkpoints out of order: %+v", got)
				}
			}
		})
	}
}

func TestHookAppendsPayloadsAndNeverFails(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "hooks.jsonl")
	for _, in := range []string{`{"hook_event_name":"Stop","session_id":"s"}`, "not json", ""} {
		if code := hookMain([]string{log}, strings.NewReader(in)); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
	if code := hookMain(nil, strings.NewReader("{}")); code != 0 {
		t.Fatalf("no file: exit %d", code)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 {
		t.Fatalf("%q", b)
	}
	var l struct {
		Ns  int64
		Doc map[string]string
	}
	if err := json.Unmarshal([]byte(lines[0]), &l); err != nil || l.Ns == 0 || l.Doc["hook_event_name"] != "Stop" {
		t.Fatalf("%s: %v", lines[0], err)
	}
}

func TestHookSettings(t *testing.T) {
	dir := t.TempDir()
	if err := writeHookSettings(dir, "/opt/rf", "/tmp/x/hooks.jsonl", []string{"Stop", "PreToolUse"}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Hooks) != 2 || s.Hooks["Stop"][0].Hooks[0].Command != "'/opt/rf' hook '/tmp/x/hooks.jsonl'" {
		t.Fatalf("%s", b)
	}
	if err := writeHookSettings(dir, "/opt/r f", "/tmp/x", nil); err == nil {
		t.Error("a path with a space went into a shell command")
	}
}

func TestPathRewriter(t *testing.T) {
	r := &driver.Run{Home: "/tmp/rf-1/home", Project: "/tmp/rf-1/proj"}
	got := recording{rewrite: true}.pathRewriter(r)(
		`{"cwd":"/tmp/rf-1/proj","transcript_path":"/tmp/rf-1/home/.claude/projects/-tmp-rf-1-proj/x.jsonl","out":"/tmp/rf-1/tmp/claude-0/-tmp-rf-1-proj/t"}`)
	want := `{"cwd":"/Users/dev/proj","transcript_path":"/Users/dev/.claude/projects/-Users-dev-proj/x.jsonl","out":"/tmp/claude-0/-Users-dev-proj/t"}`
	if got != want {
		t.Fatalf("\n%s\n%s", got, want)
	}
}
