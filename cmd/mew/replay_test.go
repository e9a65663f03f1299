package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/fixture"
)

// `mew replay --agent codex` on the recorded approval run prints the
// recorded states, one JSON object a line: working, the wait, working,
// done, exited.
func TestReplayCommandCodex(t *testing.T) {
	t.Setenv("MEW_HOME", t.TempDir())
	dir := filepath.Join(fixture.CodexRoot("0.169.0"), "b-approve")
	var out, errs strings.Builder
	if code := run([]string{"replay", "--agent", "codex", dir}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var c struct {
			T      *float64 `json:"t"`
			State  string   `json:"state"`
			Reason string   `json:"reason"`
			Source string   `json:"source"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil || c.T == nil || c.Source == "" {
			t.Fatalf("line %q: want {t, state, reason, source} (%v)", line, err)
		}
		got = append(got, strings.TrimSuffix(c.State+"("+c.Reason+")", "()"))
	}
	want := "working waiting(permission) working done exited"
	if strings.Join(got, " ") != want {
		t.Fatalf("states %v, want %s\n%s", got, want, out.String())
	}
}

func TestReplayCommandRefuses(t *testing.T) {
	t.Setenv("MEW_HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay"}, 2, "Run 'mew replay --help' for usage"},
		{[]string{"replay", "--agent", "nosuch\x1b[2J", "x"}, 2, "unknown agent"},
		{[]string{"replay", filepath.Join(t.TempDir(), "missing")}, 1, "no such file"},
	} {
		var out, errs strings.Builder
		code := run(c.args, &out, &errs)
		if code != c.code || !strings.Contains(errs.String(), c.want) || out.Len() > 0 || strings.Contains(errs.String(), "\x1b") {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, errs.String(), c.code, c.want)
		}
	}
}
