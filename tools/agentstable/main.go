// Command agentstable prints the "verified" column of README.md's agent
// table ("## Agents") from the evidence: the recordings of real runs in
// testdata/fixtures/<agent>-<version>/ and the end-to-end tests against
// the real CLIs: the conformance matrix (e2e/matrix), whose every cell is
// an e2e test on the real CLI or n/a with a reason. Its test fails when
// the README claims more, or other, than the evidence backs.
//
//	go run ./tools/agentstable      # from the repository root: one `agent<TAB>cell` line per agent
//	go run ./tools/agentstable -w   # rewrites the table's verified column in README.md
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mew-dev/mew/e2e/matrix"
	"github.com/mew-dev/mew/session"
)

// agentInfo says where an agent's evidence lives.
type agentInfo struct {
	// Title is how the README's table names the agent.
	Title string
	// Fixtures is the prefix of its recordings' folders
	// (testdata/fixtures/<Fixtures>-<version>).
	Fixtures string
}

var agents = map[string]agentInfo{
	session.AgentClaude:   {Title: "Claude Code", Fixtures: "claude-code"},
	session.AgentCodex:    {Title: "Codex", Fixtures: "codex"},
	session.AgentOpenCode: {Title: "OpenCode", Fixtures: "opencode"},
	session.AgentGemini:   {Title: "Gemini CLI", Fixtures: "gemini-cli"},
	session.AgentAmp:      {Title: "Amp", Fixtures: "amp"},
	session.AgentAgy:      {Title: "Antigravity CLI (`agy`)", Fixtures: "agy"},
	session.AgentCopilot:  {Title: "GitHub Copilot CLI", Fixtures: "copilot"},
	session.AgentQwen:     {Title: "Qwen Code", Fixtures: "qwen-code"},
	session.AgentPi:       {Title: "pi", Fixtures: "pi"},
	session.AgentCline:    {Title: "Cline CLI", Fixtures: "cline"},
	session.AgentKilo:     {Title: "Kilo CLI", Fixtures: "kilo"},
	session.AgentContinue: {Title: "Continue CLI", Fixtures: "continue"},
	session.AgentGrok:     {Title: "Grok CLI", Fixtures: "grok-cli"},
}

// scenarioWords name a recorded scenario by the words of its run's folder
// or, in a census run, its screens' labels (NN-<label>.txt).
var scenarioWords = []struct {
	name string
	re   *regexp.Regexp
}{
	{"plain turn", regexp.MustCompile(`plain|(^|-)done$`)},
	{"approval", regexp.MustCompile(`approv|perm`)},
	{"deny", regexp.MustCompile(`deny|after-esc$`)},
	{"interrupt", regexp.MustCompile(`interrupt|esc-slow|esc-esc`)},
	{"question", regexp.MustCompile(`ask|question`)},
	{"subagent", regexp.MustCompile(`subagent`)},
	{"API error", regexp.MustCompile(`error`)},
	{"exit", regexp.MustCompile(`exit|ctrlc`)},
}

// versionOf splits a fixtures folder name into the agent's prefix and a
// version (the last dash-separated part that starts with a digit).
var versionOf = regexp.MustCompile(`^(.+)-(\d[0-9A-Za-z.+-]*)$`)

// recording is what one fixtures folder backs: a version and its
// scenarios.
type recording struct {
	version   string
	scenarios []string
}

// recordings lists the recordings of agent under root (testdata/fixtures).
func recordings(root string, a agentInfo) ([]recording, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []recording
	for _, e := range entries {
		m := versionOf.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil || m[1] != a.Fixtures {
			continue
		}
		names, err := runWords(filepath.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		var sc []string
		for _, w := range scenarioWords {
			for _, n := range names {
				if w.re.MatchString(n) {
					sc = append(sc, w.name)
					break
				}
			}
		}
		if len(sc) > 0 {
			out = append(out, recording{version: m[2], scenarios: sc})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

var shotName = regexp.MustCompile(`^\d\d-(.+)\.txt$`)

// runWords are the names of a recording's runs, and of a census run's
// shots.
func runWords(dir string) ([]string, error) {
	runs, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range runs {
		if !r.IsDir() {
			continue
		}
		out = append(out, r.Name())
		shots, err := os.ReadDir(filepath.Join(dir, r.Name()))
		if err != nil {
			return nil, err
		}
		for _, s := range shots {
			if m := shotName.FindStringSubmatch(s.Name()); m != nil && !strings.HasSuffix(m[1], "TIMEOUT") {
				out = append(out, m[1])
			}
		}
	}
	return out, nil
}

// walked summarises agent's row of the conformance matrix (e2e/matrix):
// per mode, how many classes a real-CLI test walks of those that apply
// (a cell that is n/a does not count). Modes with no class that applies
// are left out.
func walked(agent string, cells []matrix.Cell) string {
	var parts []string
	for _, m := range matrix.Modes {
		tested, apply := 0, 0
		for _, c := range matrix.Classes {
			cell, ok := find(cells, agent, c.ID, m.ID)
			switch {
			case ok && cell.NA != "":
			case ok && len(cell.Tests) > 0:
				tested++
				apply++
			default:
				apply++
			}
		}
		if apply > 0 && tested > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", modeWords[m.ID], tested, apply))
		}
	}
	return strings.Join(parts, ", ")
}

// modeWords name the matrix's modes in the README.
var modeWords = map[string]string{"hooks+pane": "hooks and pane", "screen": "screen only", "hooks": "hooks only"}

func find(cells []matrix.Cell, agent, class, mode string) (matrix.Cell, bool) {
	for _, c := range cells {
		if c.Agent == agent && c.Class == class && c.Mode == mode {
			return c, true
		}
	}
	return matrix.Cell{}, false
}

// Cell is the "verified" cell the evidence backs for agent: the
// recordings in the repository at root and the conformance matrix's
// cells, whose tests run the real CLI in `make e2e`.
func Cell(root, agent string, cells []matrix.Cell) (string, error) {
	a, ok := agents[agent]
	if !ok {
		return "", fmt.Errorf("no evidence table entry for agent %q", agent)
	}
	recs, err := recordings(filepath.Join(root, "testdata", "fixtures"), a)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, r := range recs {
		parts = append(parts, fmt.Sprintf("recorded %s: %s", r.version, strings.Join(r.scenarios, ", ")))
	}
	if w := walked(agent, cells); w != "" {
		parts = append(parts, "real CLI in `make e2e`, classes walked (e2e/MATRIX.md): "+w)
	}
	if len(parts) == 0 {
		return "unverified", nil
	}
	return strings.Join(parts, "; "), nil
}

// rewrite returns readme with every agent row's last cell of the
// "## Agents" table replaced by the cell the evidence backs.
func rewrite(readme string, cell func(title string) (string, bool)) string {
	head, after, ok := strings.Cut(readme, "\n## Agents\n")
	if !ok {
		return readme
	}
	lines := strings.Split(after, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "#") {
			break
		}
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		want, ok := cell(strings.TrimSpace(cells[0]))
		if !ok {
			continue
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		cells[len(cells)-1] = want
		lines[i] = "| " + strings.Join(cells, " | ") + " |"
	}
	return head + "\n## Agents\n" + strings.Join(lines, "\n")
}

func main() {
	write := len(os.Args) > 1 && os.Args[1] == "-w"
	byTitle := map[string]string{}
	for _, agent := range session.Agents {
		cell, err := Cell(".", agent, matrix.Cells)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agentstable:", err)
			os.Exit(1)
		}
		byTitle[agents[agent].Title] = cell
		if !write {
			fmt.Printf("%s\t%s\n", agents[agent].Title, cell)
		}
	}
	if write {
		data, err := os.ReadFile("README.md")
		if err != nil {
			fmt.Fprintln(os.Stderr, "agentstable:", err)
			os.Exit(1)
		}
		out := rewrite(string(data), func(title string) (string, bool) { c, ok := byTitle[title]; return c, ok })
		if err := os.WriteFile("README.md", []byte(out), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "agentstable:", err)
			os.Exit(1)
		}
	}
}
