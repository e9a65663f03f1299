// Command agentstable prints the "verified" column of README.md's agent
// table ("## Agents") from the evidence: the recordings of real runs in
// testdata/fixtures/<agent>-<version>/ and the end-to-end tests against
// the real CLIs in e2e/ (tests named after the agent). Its test fails when
// the README claims more, or other, than the evidence backs.
//
//	go run ./tools/agentstable   # from the repository root: one `agent<TAB>cell` line per agent
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/mew-dev/mew/session"
)

// agentInfo says where an agent's evidence lives.
type agentInfo struct {
	// Title is how the README's table names the agent.
	Title string
	// Fixtures is the prefix of its recordings' folders
	// (testdata/fixtures/<Fixtures>-<version>).
	Fixtures string
	// E2E picks its end-to-end tests: names with this prefix, or every
	// test of E2EFile (Claude Code's suite predates naming by agent).
	E2E, E2EFile string
}

var agents = map[string]agentInfo{
	session.AgentClaude:   {Title: "Claude Code", Fixtures: "claude-code", E2EFile: "e2e_test.go"},
	session.AgentCodex:    {Title: "Codex", Fixtures: "codex", E2E: "TestCodex"},
	session.AgentOpenCode: {Title: "OpenCode", Fixtures: "opencode", E2E: "TestOpenCode"},
	session.AgentGemini:   {Title: "Gemini CLI", Fixtures: "gemini-cli", E2E: "TestGemini"},
	session.AgentAmp:      {Title: "Amp", Fixtures: "amp", E2E: "TestAmp"},
	session.AgentAgy:      {Title: "Antigravity CLI (`agy`)", Fixtures: "agy", E2E: "TestAgy"},
	session.AgentCopilot:  {Title: "GitHub Copilot CLI", Fixtures: "copilot", E2E: "TestCopilot"},
	session.AgentQwen:     {Title: "Qwen Code", Fixtures: "qwen-code", E2E: "TestQwen"},
	session.AgentPi:       {Title: "pi", Fixtures: "pi", E2E: "TestPi"},
	session.AgentCline:    {Title: "Cline CLI", Fixtures: "cline", E2E: "TestCline"},
	session.AgentKilo:     {Title: "Kilo CLI", Fixtures: "kilo", E2E: "TestKilo"},
	session.AgentContinue: {Title: "Continue CLI", Fixtures: "continue", E2E: "TestContinue"},
	session.AgentGrok:     {Title: "Grok CLI", Fixtures: "grok-cli", E2E: "TestGrok"},
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

// e2eTests lists the end-to-end tests of agent in dir (e2e/).
func e2eTests(dir string, a agentInfo) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if a.E2EFile != "" && filepath.Base(f) != a.E2EFile {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			if a.E2EFile != "" || strings.HasPrefix(fn.Name.Name, a.E2E) {
				out = append(out, fn.Name.Name)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Cell is the "verified" cell the evidence backs for agent, from the
// repository at root.
func Cell(root, agent string) (string, error) {
	a, ok := agents[agent]
	if !ok {
		return "", fmt.Errorf("no evidence table entry for agent %q", agent)
	}
	recs, err := recordings(filepath.Join(root, "testdata", "fixtures"), a)
	if err != nil {
		return "", err
	}
	tests, err := e2eTests(filepath.Join(root, "e2e"), a)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, r := range recs {
		parts = append(parts, fmt.Sprintf("recorded %s: %s", r.version, strings.Join(r.scenarios, ", ")))
	}
	if len(tests) > 0 {
		sel := a.E2E + "…"
		if a.E2EFile != "" {
			sel = "e2e/" + a.E2EFile
		}
		parts = append(parts, fmt.Sprintf("real CLI in `make e2e` (%s, %d tests)", sel, len(tests)))
	}
	if len(parts) == 0 {
		return "unverified", nil
	}
	return strings.Join(parts, "; "), nil
}

func main() {
	for _, agent := range session.Agents {
		cell, err := Cell(".", agent)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agentstable:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\n", agents[agent].Title, cell)
	}
}
