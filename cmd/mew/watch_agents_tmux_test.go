package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
)

// A Claude Code and a Codex in one project, each in its own tmux pane:
// `mew watch` shows two rows that read apart, each with its agent and its
// pane (issue 40: five rows all named "proj" could not be told apart).
func TestWatchTellsTwoAgentsOfOneProjectApart(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	claude := fakeagent.Write(t, dir)
	// The stand-in under Codex's name: the tmux source knows an agent by
	// its process, and the row by the agent it found.
	codex := filepath.Join(dir, "bin", "codex")
	data, err := os.ReadFile(claude)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(codex, data, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "twoagents")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	tm := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	env := []string{"-e", "KEYLOG=" + filepath.Join(dir, "keys.log"), "-e", "PAUSE=60"}
	claudePane := tm(append(append([]string{"new-session", "-d", "-s", "proj", "-P", "-F", "#{pane_id}", "-x", "120", "-y", "24", "-c", work}, env...), claude)...)
	t.Cleanup(func() { tm("kill-server") })
	codexPane := tm(append(append([]string{"new-window", "-d", "-P", "-F", "#{pane_id}", "-c", work}, env...), codex)...)
	if !strings.HasPrefix(claudePane, "%") || !strings.HasPrefix(codexPane, "%") {
		t.Fatalf("the agents' panes: %q %q", claudePane, codexPane)
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	board, boardPid, _ := strings.Cut(tm("new-window", "-d", "-P", "-F", "#{pane_id} #{pane_pid}", "-e", "HOME="+home,
		"-e", "MEW_HOME="+filepath.Join(home, ".mew"), "-e", "MEW_TMUX_SOCKET="+sock, "-e", "MEW_PROCSCAN=off", mew, "watch"), " ")
	if !strings.HasPrefix(board, "%") {
		t.Fatalf("no board pane: %q", board)
	}
	t.Cleanup(func() { stopBoard(t, tm, board, boardPid) })
	rowOf := func(screen, pane string) string {
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, "twoagents") && strings.Contains(l+" ", "."+pane+" ") {
				return l
			}
		}
		return ""
	}
	var screen, cRow, xRow string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		screen = tm("capture-pane", "-p", "-t", board)
		if cRow, xRow = rowOf(screen, claudePane), rowOf(screen, codexPane); cRow != "" && xRow != "" {
			break
		}
	}
	if cRow == "" || xRow == "" {
		t.Fatalf("the board never showed both agents' rows with their panes (%s, %s):\n%s", claudePane, codexPane, screen)
	}
	// One form of place: tmux SERVER:SESSION:WINDOW.PANE.
	for _, c := range []struct{ row, agent, place string }{
		{cRow, "claude", "tmux sock:proj:0." + claudePane},
		{xRow, "codex", "tmux sock:proj:1." + codexPane},
	} {
		if !strings.Contains(c.row, " "+c.agent+" ") || !strings.Contains(c.row+" ", c.place+" ") {
			t.Errorf("row %q: want agent %q and %q", c.row, c.agent, c.place)
		}
	}
	t.Logf("the board:\n%s", screen)
}
