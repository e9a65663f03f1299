package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/e2e/matrix"
	"github.com/mew-dev/mew/session"
)

const root = "../.."

// readmeTable reads README.md's "## Agents" table: the agent's title (the
// first cell) → the "verified" cell (the last).
func readmeTable(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n## Agents\n")
	if !ok {
		t.Fatal("README.md has no \"## Agents\" section")
	}
	rows := map[string]string{}
	header := true
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if header || strings.HasPrefix(line, "|---") {
			if strings.HasPrefix(line, "|---") {
				header = false
			} else if got := strings.TrimSpace(cells[len(cells)-1]); got != "verified" {
				t.Fatalf("the table's last column is %q, want \"verified\"", got)
			}
			continue
		}
		title := strings.TrimSpace(cells[0])
		if _, dup := rows[title]; dup {
			t.Fatalf("README: agent %q listed twice", title)
		}
		rows[title] = strings.TrimSpace(cells[len(cells)-1])
	}
	return rows
}

// The README's agent table says, for every agent Mew knows, exactly what
// its recordings and end-to-end tests back: the versions and scenarios
// recorded, whether `make e2e` runs the real CLI, "unverified" with
// neither. `go run ./tools/agentstable` prints the cells.
func TestReadmeAgentsTableMatchesTheEvidence(t *testing.T) {
	rows := readmeTable(t, filepath.Join(root, "README.md"))
	for _, agent := range session.Agents {
		want, err := Cell(root, agent, matrix.Cells)
		if err != nil {
			t.Fatal(err)
		}
		title := agents[agent].Title
		got, ok := rows[title]
		if !ok {
			t.Errorf("README: no row for %s (%s); its verified cell would be: %s", title, agent, want)
			continue
		}
		delete(rows, title)
		if got != want {
			t.Errorf("README: %s's verified cell is\n  %s\nthe evidence backs\n  %s", title, got, want)
		}
	}
	for title := range rows {
		t.Errorf("README: a row for %q, an agent Mew does not know (session.Agents)", title)
	}
}

// The check itself: a recording makes an agent's cell name its version
// and scenarios; the matrix's cells with tests add, per mode, the classes
// walked of those that apply (n/a cells left out); with neither the cell
// is "unverified".
func TestCellFollowsTheEvidence(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700)
		os.WriteFile(filepath.Join(dir, p), []byte("# t=1 title=''\n"), 0o600)
	}
	os.MkdirAll(filepath.Join(dir, "testdata", "fixtures"), 0o700)
	if got, _ := Cell(dir, session.AgentPi, nil); got != "unverified" {
		t.Fatalf("no evidence: %q, want unverified", got)
	}
	mk("testdata/fixtures/pi-9.1.0/run-1/05-approval.txt")
	mk("testdata/fixtures/pi-9.1.0/run-1/12-exited.txt")
	mk("testdata/fixtures/pi-9.1.0/run-1/13-exited-TIMEOUT.txt")
	mk("testdata/fixtures/pine-1.0/run-1/04-done.txt") // another agent's
	if got, _ := Cell(dir, session.AgentPi, nil); got != "recorded 9.1.0: approval, exit" {
		t.Fatalf("a recording: %q", got)
	}
	cells := []matrix.Cell{
		{Agent: "pi", Class: "turn", Mode: "hooks+pane", Tests: []string{"TestPiA"}},
		{Agent: "pi", Class: "deny", Mode: "hooks+pane", Tests: []string{"TestPiA"}},
		{Agent: "pi", Class: "question", Mode: "hooks+pane", NA: "no such dialog"},
		{Agent: "pi", Class: "turn", Mode: "screen", Tests: []string{"TestPiB"}},
		{Agent: "pine", Class: "exit", Mode: "hooks+pane", Tests: []string{"TestPine"}}, // another agent's
	}
	n := len(matrix.Classes)
	want := fmt.Sprintf("recorded 9.1.0: approval, exit; real CLI in `make e2e`, classes walked (e2e/MATRIX.md): hooks and pane 2/%d, screen only 1/%d", n-1, n)
	if got, _ := Cell(dir, session.AgentPi, cells); got != want {
		t.Fatalf("with matrix cells:\n got %q\nwant %q", got, want)
	}
}

// -w rewrites only the verified column of the Agents table's known rows.
func TestRewriteReplacesOnlyTheVerifiedColumn(t *testing.T) {
	in := "# Mew\n\n## Agents\n\n| agent | hears | verified |\n|---|---|---|\n| pi | its extension | old words |\n| Other | x | kept |\n\n## Next\n| pi | a | b |\n"
	got := rewrite(in, func(title string) (string, bool) {
		if title == "pi" {
			return "new words", true
		}
		return "", false
	})
	want := "# Mew\n\n## Agents\n\n| agent | hears | verified |\n|---|---|---|\n| pi | its extension | new words |\n| Other | x | kept |\n\n## Next\n| pi | a | b |\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
