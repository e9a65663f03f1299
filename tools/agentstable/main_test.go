package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		want, err := Cell(root, agent)
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
// and scenarios, an e2e test named after it adds `make e2e`, and with
// neither the cell is "unverified".
func TestCellFollowsTheEvidence(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700)
		os.WriteFile(filepath.Join(dir, p), []byte("# t=1 title=''\n"), 0o600)
	}
	os.MkdirAll(filepath.Join(dir, "testdata", "fixtures"), 0o700)
	os.MkdirAll(filepath.Join(dir, "e2e"), 0o700)
	if got, _ := Cell(dir, session.AgentPi); got != "unverified" {
		t.Fatalf("no evidence: %q, want unverified", got)
	}
	mk("testdata/fixtures/pi-9.1.0/run-1/05-approval.txt")
	mk("testdata/fixtures/pi-9.1.0/run-1/12-exited.txt")
	mk("testdata/fixtures/pi-9.1.0/run-1/13-exited-TIMEOUT.txt")
	mk("testdata/fixtures/pine-1.0/run-1/04-done.txt") // another agent's
	if got, _ := Cell(dir, session.AgentPi); got != "recorded 9.1.0: approval, exit" {
		t.Fatalf("a recording: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "e2e", "pi_test.go"), []byte("package e2e\nimport \"testing\"\nfunc TestPiPlainTurn(t *testing.T) {}\nfunc TestPine(t *testing.T) {}\n"), 0o600)
	if got, _ := Cell(dir, session.AgentPi); got != "recorded 9.1.0: approval, exit; real CLI in `make e2e` (TestPi…, 2 tests)" {
		// TestPine is counted: a test name starting with the agent's is the
		// agent's; keep agent-named tests unambiguous.
		t.Fatalf("with an e2e test: %q", got)
	}
}
