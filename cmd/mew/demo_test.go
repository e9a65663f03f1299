package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/fakeagent"
)

// demoBlocks splits `mew demo --once` output into the board after each
// narrated step: note → session lines (fields joined by single spaces).
func demoBlocks(out string) (notes []string, boards [][]string) {
	for _, block := range strings.Split(out, "== step ") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		if len(lines) < 2 {
			continue
		}
		_, note, _ := strings.Cut(lines[0], ": ")
		var rows []string
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "  ") {
				rows = append(rows, strings.Join(strings.Fields(l), " "))
			}
		}
		notes, boards = append(notes, note), append(boards, rows)
	}
	return notes, boards
}

func TestDemoOnceLightsUpTheBoard(t *testing.T) {
	c := newBoardCLI(t)
	out, errs, code := c.run(t, "demo", "--once", "--speed", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	notes, boards := demoBlocks(out)
	find := func(prefix string) []string {
		for i, n := range notes {
			if strings.HasPrefix(n, prefix) {
				return boards[i]
			}
		}
		t.Fatalf("no step %q in:\n%s", prefix, out)
		return nil
	}
	if b := find("checkout-api wants to run a command"); !strings.HasPrefix(b[0], "checkout-api claude 2.1.328 waiting · permission") ||
		!strings.Contains(b[0], "Bash: npm test") {
		t.Errorf("the permission prompt is not on top: %q", b)
	}
	if b := find("web-app has a question"); len(b) < 2 || !strings.HasPrefix(b[1], "web-app claude 2.1.328 waiting · question") {
		t.Errorf("the question is not second (the older wait first): %q", b)
	}
	if b := find("…but Claude Code re-engages"); !containsPrefix(b, "infra claude 2.1.328 working") {
		t.Errorf("infra is not working after the re-engagement: %q", b)
	}
	// Every row names the agent with its version (the demo's Claude Code
	// is 2.1.328).
	final := boards[len(boards)-1]
	for _, want := range []string{"ml-pipeline claude 2.1.328 failed", "checkout-api claude 2.1.328 done", "web-app claude 2.1.328 done", "infra claude 2.1.328 done", "docs-site claude 2.1.328 exited"} {
		if !containsPrefix(final, want) {
			t.Errorf("the final board lacks %q: %q", want, final)
		}
	}
	// The person's own MEW_HOME was never touched, and the scratch
	// directory is gone.
	if entries, _ := os.ReadDir(c.home); len(entries) != 0 {
		t.Errorf("the demo wrote into MEW_HOME: %v", entries)
	}
	for _, e := range c.env {
		if dir, ok := strings.CutPrefix(e, "TMPDIR="); ok {
			if left, _ := filepath.Glob(filepath.Join(dir, "mew-demo-*")); len(left) > 0 {
				t.Errorf("the demo left %v behind", left)
			}
		}
	}
}

func containsPrefix(rows []string, prefix string) bool {
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}

func TestDemoNeedsTheHook(t *testing.T) {
	c := newBoardCLI(t)
	alone := filepath.Join(t.TempDir(), "mew")
	data, err := os.ReadFile(c.mew)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "demo", "--once")
	cmd.Env = append(c.env, "PATH=/nonexistent")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "mew-hook") {
		t.Errorf("without mew-hook: %v %q", err, out)
	}
	if _, errs, code := c.run(t, "demo", "--speed", "-1"); code != 2 || errs == "" {
		t.Errorf("a negative speed: exit %d %q", code, errs)
	}
}

// The demo is simulated only: with a tmux server running an agent and the
// process scan on, its board lists the demo's sessions and nothing of the
// machine; piped, its steps are numbered 1, 2, 3… and it never says
// "press Enter" with no board to press it on (issue 40, item 5).
func TestDemoShowsOnlyItsOwnWorld(t *testing.T) {
	s := fakeagent.Start(t, "60")
	s.WaitDialog(t, 1)
	c := newBoardCLI(t)
	env := c.env[:0:0]
	for _, e := range c.env {
		if !strings.HasPrefix(e, "MEW_PROCSCAN=") && !strings.HasPrefix(e, "MEW_TMUX_SOCKET=") {
			env = append(env, e)
		}
	}
	c.env = append(env, "MEW_TMUX_SOCKET="+s.Socket)
	out, errs, code := c.run(t, "demo", "--once", "--speed", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	projects := map[string]bool{"checkout-api": true, "web-app": true, "infra": true, "docs-site": true, "ml-pipeline": true}
	_, boards := demoBlocks(out)
	for _, b := range boards {
		for _, row := range b {
			if p, _, _ := strings.Cut(row, " "); !projects[p] {
				t.Errorf("a row not of the demo: %q", row)
			}
		}
	}
	if strings.Contains(out, "tmux") {
		t.Errorf("the demo shows the machine's tmux:\n%s", out)
	}
	want := 1
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "== step "); ok {
			if n, _, _ := strings.Cut(rest, ":"); n != fmt.Sprint(want) {
				t.Errorf("step %q, want %d", n, want)
			}
			want++
		}
	}
	if want < 10 || strings.Contains(out, "press Enter") {
		t.Errorf("%d steps; the output says press Enter: %v", want-1, strings.Contains(out, "press Enter"))
	}
}
