package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestEmbeddedRulesLoad(t *testing.T) {
	b := Embedded()
	for _, agent := range session.Agents {
		s := b.Set(agent)
		if s == nil {
			t.Fatalf("no embedded rules for %s", agent)
		}
		if len(s.Sniff.Commands) == 0 {
			t.Errorf("%s: no process names to sniff by", agent)
		}
	}
}

func TestParseRefusesWithFileLineAndReason(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
		reason    string
	}{
		{"bad regex", "agent = \"x\"\n\n[[rule]]\nstate = \"idle\"\nscreen = 'a(b'\n", 5, "bad pattern"},
		{"unknown key", "agent = \"x\"\n[[rule]]\nstate = \"idle\"\nscren = 'a'\n", 4, `unknown key "rule.scren"`},
		{"unknown table key", "agent = \"x\"\n[sniff]\ncommand = ['x']\n", 3, `unknown key "sniff.command"`},
		{"bad state", "agent = \"x\"\n[[rule]]\nstate = \"waiting\"\nscreen = 'a'\n", 2, "state must be one of"},
		{"no pattern", "agent = \"x\"\n[[rule]]\nstate = \"idle\"\n", 2, "needs at least one of"},
		{"reason on idle", "agent = \"x\"\n[[rule]]\nstate = \"idle\"\nreason = \"plan\"\nscreen = 'a'\n", 2, "blocked rules only"},
		{"bad reason", "agent = \"x\"\n[[rule]]\nstate = \"blocked\"\nreason = \"coffee\"\nscreen = 'a'\n", 2, "reason must be"},
		{"bad agent", "agent = \"../x\"\n", 1, "agent must be"},
		{"wrong type", "agent = \"x\"\n[[rule]]\nstate = \"idle\"\nscreen = 'a'\nlast = \"two\"\n", 5, ""},
		{"syntax", "agent = \"x\"\nstate = = 1\n", 2, ""},
		{"interrupted on working", "agent = \"x\"\n[[rule]]\nstate = \"working\"\nturn = \"interrupted\"\nscreen = 'a'\n", 2, "idle rules only"},
		{"command with slash", "agent = \"x\"\n[sniff]\ncommands = ['/bin/sh']\n", 3, "not a process name"},
		{"settle not a duration", "agent = \"x\"\nreport_settle = \"soon\"\n", 2, "report_settle must be a duration"},
		{"settle under the default", "agent = \"x\"\nreport_settle = \"100ms\"\n", 2, "report_settle must be a duration"},
		{"settle of minutes", "agent = \"x\"\nreport_settle = \"5m\"\n", 2, "report_settle must be a duration"},
		{"final and a settle time", "agent = \"x\"\nreport_settle = \"1s\"\nreport_final = true\n", 3, "exclude each other"},
	}
	for _, c := range cases {
		_, _, err := Parse("x.toml", []byte(c.doc))
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a FileError", c.name, err)
			continue
		}
		if fe.File != "x.toml" || fe.Line != c.line || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("%s: got %q (line %d), want line %d and %q", c.name, err, fe.Line, c.line, c.reason)
		}
	}
}

func TestPatternsAreLineAnchoredAndBounded(t *testing.T) {
	set, _, err := Parse("t", []byte("agent = \"t\"\n[[rule]]\nstate = \"idle\"\nscreen = '^› '\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Classify(Frame{Rows: []string{"header", "› prompt"}}); got.State != session.ScreenIdle {
		t.Errorf("^ should match at a row start: %+v", got)
	}
	if got := set.Classify(Frame{Rows: []string{"a › b"}}); got.State != session.ScreenUnknown {
		t.Errorf("^ matched mid-row: %+v", got)
	}
	long := "agent = \"t\"\n[[rule]]\nstate = \"idle\"\nscreen = '" + strings.Repeat("a", maxPattern+1) + "'\n"
	if _, _, err := Parse("t", []byte(long)); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("an over-long pattern was accepted: %v", err)
	}
}

func TestPrecedenceBeatsFileOrder(t *testing.T) {
	doc := `agent = "t"
[[rule]]
state = "idle"
screen = 'prompt'
[[rule]]
state = "working"
screen = 'spinner'
[[rule]]
state = "blocked"
reason = "question"
screen = 'pick one'
[[rule]]
state = "exited"
screen = 'bye'
`
	set, _, err := Parse("t", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"prompt":                         "t/idle#1",
		"prompt\nspinner":                "t/working#1",
		"prompt\nspinner\npick one":      "t/blocked#1",
		"prompt\nspinner\npick one\nbye": "t/exited#1",
		"nothing known":                  "",
	}
	for screen, want := range cases {
		if got := set.Classify(Frame{Rows: strings.Split(screen, "\n")}); got.Rule != want {
			t.Errorf("%q: rule %q, want %q", screen, got.Rule, want)
		}
	}
	if got := set.Classify(Frame{Rows: []string{"pick one"}}); got.Reason != session.ReasonQuestion {
		t.Errorf("reason %q, want question", got.Reason)
	}
}

func TestTitleAgentStateAndLast(t *testing.T) {
	doc := `agent = "t"
[[rule]]
state = "working"
title = '^\*'
[[rule]]
state = "blocked"
agent_state = '^blocked'
[[rule]]
state = "idle"
screen = 'ready'
last = 1
`
	set, _, err := Parse("t", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Classify(Frame{Rows: []string{"x"}, Title: "* job"}); got.State != session.ScreenWorking {
		t.Errorf("title rule: %+v", got)
	}
	if got := set.Classify(Frame{Rows: []string{"x"}, AgentState: "blocked:kind=permission"}); got.State != session.ScreenBlocked {
		t.Errorf("agent state rule: %+v", got)
	}
	if got := set.Classify(Frame{Rows: []string{"ready", "later text", "", ""}}); got.State != session.ScreenUnknown {
		t.Errorf("last = 1 looked above the last non-blank row: %+v", got)
	}
	if got := set.Classify(Frame{Rows: []string{"old", "ready", ""}}); got.State != session.ScreenIdle {
		t.Errorf("last = 1 missed the last row: %+v", got)
	}
}

func TestOverridesComeFirstOrReplace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, doc string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// An extra blocked rule for Claude, tried before the embedded ones.
	write("claude.toml", "agent = \"claude\"\n[[rule]]\nstate = \"blocked\"\nreason = \"question\"\nscreen = 'Pick a colour'\n")
	// A broken Codex file: refused, the embedded Codex rules stay.
	write("codex.toml", "agent = \"codex\"\n[[rule]]\nstate = \"idle\"\nscreen = '('\n")
	// A file whose name and agent disagree.
	write("gemini.toml", "agent = \"opencode\"\n")
	// A replacement for OpenCode.
	write("opencode.toml", "agent = \"opencode\"\nreplace = true\n[sniff]\ncommands = [\"oc\"]\n[[rule]]\nstate = \"idle\"\nscreen = 'only me'\n")
	// A new agent.
	write("aider.toml", "agent = \"aider\"\n[sniff]\ncommands = [\"aider\"]\n[[rule]]\nstate = \"idle\"\nscreen = '^> $'\n")
	write("notes.txt", "ignored")

	b, errs := Load(dir)
	if len(errs) != 2 {
		t.Fatalf("errors %v, want the codex and gemini files refused", errs)
	}
	joined := errs[0].Error() + "\n" + errs[1].Error()
	if !strings.Contains(joined, filepath.Join(dir, "codex.toml")+":4:") || !strings.Contains(joined, "does not match the file name gemini.toml (name it opencode.toml)") {
		t.Errorf("errors do not name file, line and reason: %s", joined)
	}
	claude := b.Set("claude")
	if got := claude.Classify(Frame{Rows: []string{"Pick a colour", "❯ 1. Yes"}}); got.Rule != "claude/blocked#1" || got.Reason != session.ReasonQuestion {
		t.Errorf("override not tried first: %+v", got)
	}
	if got := claude.Classify(Frame{Rows: []string{"Do you want to proceed?"}}); got.State != session.ScreenBlocked {
		t.Errorf("embedded Claude rules lost: %+v", got)
	}
	if b.Set("codex").Origin != "embedded" {
		t.Errorf("a refused override replaced the embedded Codex rules")
	}
	oc := b.Set("opencode")
	if got := oc.Classify(Frame{Rows: []string{"△ Permission required"}}); got.State != session.ScreenUnknown {
		t.Errorf("replace = true kept embedded rules: %+v", got)
	}
	if b.SniffProcess("aider", []string{"/usr/bin/aider"}) != "aider" {
		t.Errorf("a new agent's file is not used for sniffing")
	}
}

func TestSniff(t *testing.T) {
	b := Embedded()
	cases := []struct {
		name string
		argv []string
		want string
	}{
		{"claude", []string{"claude", "--resume"}, "claude"},
		{"node", []string{"node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"}, ""},
		{"node", []string{"/usr/bin/node", "/home/me/.npm/bin/gemini"}, "gemini"},
		{"node", []string{"node", "--no-warnings", "/usr/local/bin/gemini", "-p", "x"}, "gemini"},
		{"codex", []string{"/x/vendor/bin/codex", "please"}, "codex"},
		{"opencode", []string{"/x/node_modules/.bin/opencode"}, "opencode"},
		{"amp", []string{"amp"}, "amp"},
		{"bash", []string{"-bash"}, ""},
		{"vim", []string{"vim", "claude.md"}, ""},
	}
	for _, c := range cases {
		if got := b.SniffProcess(c.name, c.argv); got != c.want {
			t.Errorf("SniffProcess(%q, %q) = %q, want %q", c.name, c.argv, got, c.want)
		}
	}
	if got := b.SniffScreen(Frame{Rows: []string{"", "  >_ OpenAI Codex (v0.171.0)"}}); got != "codex" {
		t.Errorf("SniffScreen(codex banner) = %q", got)
	}
	if got := b.SniffScreen(Frame{Rows: []string{"$ ls", "a b c"}}); got != "" {
		t.Errorf("a shell screen sniffed as %q", got)
	}
}

// Gemini CLI 0.61 after Esc while working (screen captured in the end-to-
// end suite): idle, interrupted; once a later turn pushed the line up,
// not any more.
func TestGeminiRequestCancelled(t *testing.T) {
	set := Embedded().Set("gemini")
	cancelled := []string{
		" > please mew-e2e-slow",
		"✦ Thinking it over slowly Thinking it over slowly",
		"ℹ Request cancelled.",
		"  Executing Hook: GOMAXPROCS=1 \"$HOME/.mew/bin/mew-hook\" --agent=gemini           ? for shortcuts",
		"────────────────────────────────────────────────────────────────",
		" Shift+Tab to accept edits",
		" >   Type your message or @path/to/file",
		" workspace (/directory)                                   sandbox                  /model",
		" ~/proj                                                   no sandbox     gemini-2.5-flash",
		"",
	}
	if got := set.Classify(Frame{Rows: cancelled}); got.State != session.ScreenIdle || !got.Interrupted {
		t.Fatalf("after Esc: %+v, want idle, interrupted", got)
	}
	later := append(append(append([]string(nil), cancelled[:3]...), " > hello", "✦ Hello from the fake model."), cancelled[3:]...)
	if got := set.Classify(Frame{Rows: later}); got.State != session.ScreenIdle || got.Interrupted {
		t.Fatalf("a turn later: %+v, want idle, not interrupted", got)
	}
}

// Continue CLI 1.5.47 after Escape on a running turn (screen captured in
// the end-to-end suite): idle, interrupted; a later turn's reply below the
// line: idle, not interrupted.
func TestContinueInterruptedByUser(t *testing.T) {
	set := Embedded().Set("continue")
	box := []string{
		"╭──────────────────────────────────────────────────────────────╮",
		"│ ● ▋Ask anything, @ for context, / for slash commands, ! for shell mode │",
		"╰──────────────────────────────────────────────────────────────╯",
		"  ~/proj ⊦master                                    ◉ Continue CLI",
		"", "",
	}
	stopped := append([]string{
		"● please mew-e2e-slow",
		"",
		" Interrupted by user - Press enter to continue",
	}, box...)
	if got := set.Classify(Frame{Rows: stopped}); got.State != session.ScreenIdle || !got.Interrupted {
		t.Fatalf("after Escape: %+v, want idle, interrupted", got)
	}
	later := append(append(append([]string(nil), stopped[:3]...), "", "● hello", "", "● Hello from the fake model.", ""), box...)
	if got := set.Classify(Frame{Rows: later}); got.State != session.ScreenIdle || got.Interrupted {
		t.Fatalf("a turn later: %+v, want idle, not interrupted", got)
	}
}

func TestSniffAgentsRunByNode(t *testing.T) {
	b := Embedded()
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"node", "/usr/lib/node_modules/@ampcode/cli/bin/amp"}, "amp"},
		{[]string{"node", "/usr/local/bin/gemini", "--model", "x"}, "gemini"},
		{[]string{"node", "/srv/campaign.js"}, ""},
		{[]string{"node", "/srv/amp-tools/server.js"}, ""},
	}
	for _, c := range cases {
		if got := b.SniffProcess("node", c.argv); got != c.want {
			t.Errorf("SniffProcess(node, %q) = %q, want %q", c.argv, got, c.want)
		}
	}
	trust := []string{" │ Do you trust the files in this folder?                     │", " │ ● 1. Trust folder (proj)   │"}
	if got := b.Set("gemini").Classify(Frame{Rows: trust}); got.State != session.ScreenBlocked {
		t.Errorf("Gemini's folder trust dialog: %+v, want blocked", got)
	}
}

// Patterns that are valid but costly (RE2 is linear in the screen, times
// the compiled program) are refused, with the line: 200 of them cost 24 s
// of CPU a classification.
func TestParseRefusesCostlyPatterns(t *testing.T) {
	rules := func(n int, pattern string) string {
		var b strings.Builder
		b.WriteString("agent = \"x\"\n")
		for range n {
			fmt.Fprintf(&b, "[[rule]]\nstate = \"idle\"\nscreen = '%s'\n", pattern)
		}
		return b.String()
	}
	var sniff strings.Builder
	sniff.WriteString("agent = \"x\"\n[sniff]\nscreen = [")
	for i := range maxPatterns + 1 {
		fmt.Fprintf(&sniff, "'s%d',", i)
	}
	sniff.WriteString("]\n")
	cases := []struct {
		name, doc string
		line      int
		reason    string
	}{
		{"one huge program", rules(1, `(\w+\s*){1000}x`), 4, "instructions, over the limit of 1000"},
		// Each is ~900 instructions: the third rule passes the file's limit.
		{"200 slow patterns", rules(200, `(\w+\s*){150}x`), 8, "over the limit of 2000 for one file"},
		{"too many patterns", sniff.String(), 3, "more than 300 patterns"},
	}
	for _, c := range cases {
		_, _, err := Parse("x.toml", []byte(c.doc))
		var fe *FileError
		if !errors.As(err, &fe) || fe.File != "x.toml" || fe.Line != c.line || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("%s: got %v, want x.toml:%d: ...%s", c.name, err, c.line, c.reason)
		}
	}
}

// Only regular files are read: a FIFO among the rules files hung every
// reader at the open, a device is never a rules file.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "claude.toml"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "codex.toml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() { _, errs := Load(dir); done <- errs }()
	var errs []error
	select {
	case errs = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Load hangs on a FIFO")
	}
	joined := fmt.Sprint(errs)
	if len(errs) != 2 || !strings.Contains(joined, filepath.Join(dir, "claude.toml")+": not a regular file: a FIFO") ||
		!strings.Contains(joined, filepath.Join(dir, "codex.toml")+": not a regular file: a device") {
		t.Errorf("errors %v, want the FIFO and the device refused, each named", errs)
	}
}

// report_settle is the agent's own settle time: Gemini CLI's embedded rules
// give one, an override may change it, and one that does not say keeps it.
func TestReportSettle(t *testing.T) {
	b := Embedded()
	if got := b.Set("gemini").ReportSettle; got != time.Second {
		t.Errorf("Gemini CLI's embedded settle: %v, want 1s", got)
	}
	if got := b.Set("claude").ReportSettle; got != 0 {
		t.Errorf("Claude Code's settle: %v, want the default (0)", got)
	}
	for _, c := range []struct {
		doc  string
		want time.Duration
	}{
		{"agent = \"gemini\"\nreport_settle = \"2s\"\n", 2 * time.Second},
		{"agent = \"gemini\"\n[[rule]]\nstate = \"idle\"\nscreen = 'x'\n", time.Second},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "gemini.toml"), []byte(c.doc), 0o600); err != nil {
			t.Fatal(err)
		}
		b, errs := Load(dir)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := b.Set("gemini").ReportSettle; got != c.want {
			t.Errorf("%q: settle %v, want %v", c.doc, got, c.want)
		}
	}
}

// report_final: the agents whose own reports tell a stop and an error from
// a finished turn (their hooks-only walks) are not waited on; Gemini CLI,
// whose AfterAgent ends an Esc and an error like any turn, is. An override
// that sets a settle time of its own waits again.
func TestReportFinal(t *testing.T) {
	b := Embedded()
	for agent, want := range map[string]bool{"opencode": true, "kilo": true, "qwen": true, "gemini": false, "claude": false, "codex": false} {
		if got := b.Set(agent).ReportFinal; got != want {
			t.Errorf("%s: report_final %v, want %v", agent, got, want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "qwen.toml"), []byte("agent = \"qwen\"\nreport_settle = \"1s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, errs := Load(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if s := b.Set("qwen"); s.ReportFinal || s.ReportSettle != time.Second {
		t.Errorf("an override with a settle time: final %v, settle %v; want false, 1s", s.ReportFinal, s.ReportSettle)
	}
}

// Every launcher shape an agent is started through (issue 35: Qwen Code
// started through npm's global bin link, `node /usr/local/bin/qwen`, was
// not recognised, and its pane not read): the package's bin link run by
// node (npm's global prefix, nvm's, a user prefix; the relaunched child with
// node's options), `env VAR=… agent` as typed after `mew run --`, and the
// shapes already known.
func TestSniffLauncherShapes(t *testing.T) {
	b := Embedded()
	// The command each agent's npm package links into a bin folder.
	bins := map[string]string{
		"amp": "amp", "claude": "claude", "cline": "cline", "codex": "codex", "continue": "cn",
		"copilot": "copilot", "gemini": "gemini", "kilo": "kilo", "opencode": "opencode", "pi": "pi", "qwen": "qwen",
	}
	for agent, bin := range bins {
		for _, argv := range [][]string{
			{"node", "/usr/local/bin/" + bin},
			{"/usr/bin/node", "/home/u/.nvm/versions/node/v22.12.0/bin/" + bin, "--yolo"},
			{"node", "--expose-gc", "--no-warnings=DEP0040", "/home/u/.npm-global/bin/" + bin},
			{"nodejs", "/usr/lib/node_modules/.bin/" + bin},
			{"env", "FOO=1", "-u", "BAR", bin, "--flag"},
			{"/usr/bin/env", "node", "/usr/local/bin/" + bin},
			{"nice", "-n", "5", bin},
		} {
			if got := b.SniffProcess(filepath.Base(argv[0]), argv); got != agent {
				t.Errorf("%s: SniffProcess(%q) = %q", agent, argv, got)
			}
		}
	}
	for _, argv := range [][]string{
		{"node", "-e", "require('/usr/local/bin/qwen')"},
		{"node", "/srv/app/server.js", "qwen"},
		{"env", "FOO=1"},
		{"node"},
	} {
		if got := b.SniffProcess(filepath.Base(argv[0]), argv); got != "" {
			t.Errorf("SniffProcess(%q) = %q, want none", argv, got)
		}
	}
}
