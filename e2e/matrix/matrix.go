// Package matrix declares the conformance matrix of issue 35: every
// scenario class × every agent × every mode Mew reads it in, each cell the
// end-to-end tests (package e2e, on the real CLI) that prove it, or "n/a"
// with the reason. A cell not declared is a gap: the generator
// (tools/conformance, `make conformance`) prints it as one, so a claim of
// support is a passing test and a gap is visible. matrix_test.go checks
// that every test a cell names exists and every n/a says why.
package matrix

import (
	"fmt"
	"strings"
)

// Class is one kind of situation every agent meets.
type Class struct {
	ID, Title string
}

// Classes, in the order the matrix shows them.
var Classes = []Class{
	{"turn", "plain turn → done"},
	{"allow", "permission allowed → working → done"},
	{"deny", "denied or Esc on the dialog → not waiting ≤ 0.5 s, next turn → done"},
	{"esc", "Esc while a reply streams → idle, never done on the way"},
	{"error", "API error → failed, never done on the way"},
	{"quote", "a reply quoting the agent's dialog → never waiting"},
	{"question", "a question or plan dialog → waiting with that reason"},
	{"fresh", "a fresh pane before any turn → idle in both views"},
	{"launcher", "launcher shapes: npm global link, env VAR=…, mew run"},
	{"kill", "kill -9 while waiting → exited"},
	{"exit", "a normal exit → exited"},
}

// Mode is how Mew reads the agent.
type Mode struct {
	ID, Title string
}

// Modes, in the order the matrix shows them.
var Modes = []Mode{
	{"hooks+pane", "hooks (or plugin) and the pane read"},
	{"screen", "screen only (`mew run`, a plain pane)"},
	{"hooks", "hooks only (the pane not read)"},
}

// Agents are the runnable agents, by session.Agent name, in the order the
// matrix shows them.
var Agents = []string{"claude", "codex", "opencode", "gemini", "amp", "copilot", "qwen", "pi", "cline", "kilo", "continue", "grok", "agy"}

// Cell is one agent's class in one mode: the tests that prove it, or why
// it does not apply.
type Cell struct {
	Agent, Class, Mode string
	Tests              []string
	NA                 string
}

// t and na make the table below short.
func t(agent, class, mode string, tests ...string) Cell {
	return Cell{Agent: agent, Class: class, Mode: mode, Tests: tests}
}

func na(agent, class, mode, why string) Cell {
	return Cell{Agent: agent, Class: class, Mode: mode, NA: why}
}

// noHooks: a mode an agent cannot be read in.
const (
	noHooks    = "the agent has no hooks: its screen is all there is"
	noDialog   = "the agent has no such dialog"
	notRunning = "agy is not on npm here: it cannot run in the suite"
)

// Cells as the existing scenarios map to them. Each names the tests that
// walk the class on the real CLI.
var Cells = []Cell{
	// Claude Code.
	t("claude", "turn", "hooks+pane", "TestQuestionThenExit", "TestPermissionPrompt"),
	t("claude", "allow", "hooks+pane", "TestPermissionPrompt", "TestAnswerPermissionApproved"),
	t("claude", "deny", "hooks+pane", "TestEscOnPermissionPrompt", "TestEscOnPromptThenTurnDone", "TestEscOnPromptThenTurnDoneWatch"),
	t("claude", "esc", "hooks+pane", "TestEscDuringSlowTurn"),
	t("claude", "esc", "hooks", "TestNoInstallRegistryOnlyEscNoScreen"),
	t("claude", "quote", "hooks+pane", "TestReplyQuotesDialog", "TestReplyQuotesDialogWatch"),
	t("claude", "question", "hooks+pane", "TestAskUserQuestion", "TestExitPlanMode"),
	t("claude", "question", "hooks", "TestNoInstallRegistryOnlyQuestionAndPlan"),
	t("claude", "launcher", "screen", "TestMewRunInTmuxClaude", "TestScreenMewRunNoInstall", "TestScreenTmuxPaneNoInstall"),
	t("claude", "exit", "hooks+pane", "TestQuestionThenExit", "TestCloseAfterEscOnPrompt"),

	// Codex.
	t("codex", "turn", "hooks+pane", "TestCodexPlainTurn"),
	t("codex", "turn", "hooks", "TestCodexUntrusted"),
	t("codex", "allow", "hooks+pane", "TestCodexApproval", "TestCodexAnswerApproved"),
	t("codex", "allow", "screen", "TestCodexUntrustedApprovalFromScreen", "TestScreenCodexMewRun"),
	t("codex", "deny", "hooks+pane", "TestCodexDeclineWithEsc", "TestCodexStopThenTurnDone"),
	t("codex", "deny", "screen", "TestScreenCodexMewRunDecline"),
	t("codex", "esc", "hooks+pane", "TestCodexEscWhileWorking", "TestCodexStopThenTurnDone"),
	t("codex", "error", "hooks+pane", "TestCodexHTTP500"),
	t("codex", "error", "hooks", "TestCodexUntrusted"),
	t("codex", "fresh", "hooks+pane", "TestCodexPlainTurn"),
	t("codex", "launcher", "screen", "TestMewRunInTmuxCodex"),
	t("codex", "kill", "hooks+pane", "TestCodexTUIKilledMidTurn"),
	t("codex", "exit", "hooks+pane", "TestCodexQuitWhileIdle", "TestCodexToolCallsThenQuit"),

	// OpenCode.
	t("opencode", "turn", "hooks+pane", "TestOpenCodeTurnsAndExit"),
	t("opencode", "allow", "hooks+pane", "TestOpenCodeTurnsAndExit"),
	t("opencode", "deny", "hooks+pane", "TestOpenCodeDenyAndError", "TestOpenCodeRejectWatch", "TestOpenCodeStopThenTurnDone"),
	t("opencode", "esc", "hooks+pane", "TestOpenCodeDenyAndError", "TestOpenCodeStopThenTurnDone"),
	t("opencode", "error", "hooks+pane", "TestOpenCodeDenyAndError"),
	t("opencode", "launcher", "screen", "TestMewRunInTmuxOpenCode"),
	t("opencode", "exit", "hooks+pane", "TestOpenCodeTurnsAndExit"),
	na("opencode", "question", "hooks+pane", "not scripted yet: OpenCode's question tool needs a stand-in that asks"),

	// Gemini CLI.
	t("gemini", "turn", "hooks+pane", "TestGeminiTurnsAndExit", "TestGeminiNoDoneOnTheWay"),
	t("gemini", "allow", "hooks+pane", "TestGeminiTurnsAndExit"),
	t("gemini", "deny", "hooks+pane", "TestGeminiDenyAndError"),
	t("gemini", "esc", "hooks+pane", "TestGeminiNoDoneOnTheWay", "TestGeminiNoDoneOnTheWayWatch"),
	t("gemini", "error", "hooks+pane", "TestGeminiNoDoneOnTheWay", "TestGeminiDenyAndError"),
	t("gemini", "error", "hooks", "TestGeminiErrorHooksOnly"),
	t("gemini", "launcher", "screen", "TestMewRunInTmuxGemini"),
	t("gemini", "exit", "hooks+pane", "TestGeminiTurnsAndExit"),
	na("gemini", "question", "hooks+pane", noDialog),

	// Amp.
	t("amp", "turn", "hooks+pane", "TestAmpUnderInstall"),
	t("amp", "turn", "screen", "TestAmpPlainPane", "TestAmpUnderMewRun"),
	t("amp", "allow", "hooks+pane", "TestAmpUnderInstall", "TestAmpAnswerAllows"),
	t("amp", "launcher", "screen", "TestAmpUnderMewRun"),
	na("amp", "allow", "hooks", "Amp's plugin says nothing of its dialog: the pane is needed"),

	// GitHub Copilot CLI.
	t("copilot", "turn", "hooks+pane", "TestCopilotTurnsAndExit"),
	t("copilot", "turn", "screen", "TestCopilotWithoutHooks"),
	t("copilot", "allow", "hooks+pane", "TestCopilotTurnsAndExit"),
	t("copilot", "deny", "hooks+pane", "TestCopilotDenyAndError"),
	t("copilot", "deny", "screen", "TestCopilotWithoutHooks"),
	t("copilot", "error", "hooks+pane", "TestCopilotDenyAndError"),
	t("copilot", "launcher", "screen", "TestMewRunInTmuxCopilot"),
	t("copilot", "exit", "hooks+pane", "TestCopilotTurnsAndExit"),

	// Qwen Code.
	t("qwen", "turn", "hooks+pane", "TestQwenTurnsAndExit"),
	t("qwen", "allow", "hooks+pane", "TestQwenTurnsAndExit"),
	t("qwen", "deny", "hooks+pane", "TestQwenDenyAndError", "TestQwenLinkedBinEsc"),
	t("qwen", "deny", "hooks", "TestQwenLinkedBinEscHooksOnly"),
	t("qwen", "esc", "hooks+pane", "TestQwenDenyAndError"),
	t("qwen", "error", "hooks+pane", "TestQwenDenyAndError"),
	t("qwen", "launcher", "hooks+pane", "TestQwenLinkedBinEsc"),
	t("qwen", "launcher", "hooks", "TestQwenLinkedBinEscHooksOnly"),
	t("qwen", "exit", "hooks+pane", "TestQwenTurnsAndExit"),

	// pi.
	t("pi", "turn", "hooks+pane", "TestPiTurnsAndExit"),
	t("pi", "allow", "hooks+pane", "TestPiTurnsAndExit"),
	t("pi", "deny", "hooks+pane", "TestPiDenyAndError"),
	t("pi", "error", "hooks+pane", "TestPiDenyAndError"),
	t("pi", "exit", "hooks+pane", "TestPiTurnsAndExit"),

	// Cline.
	t("cline", "turn", "hooks+pane", "TestClineTurnsAndExit"),
	t("cline", "allow", "hooks+pane", "TestClineTurnsAndExit"),
	t("cline", "deny", "hooks+pane", "TestClineDenyAndError"),
	t("cline", "error", "hooks+pane", "TestClineDenyAndError"),
	t("cline", "exit", "hooks+pane", "TestClineTurnsAndExit"),
	na("cline", "deny", "hooks", "Cline runs no hook for its approval dialog: the pane is needed"),

	// Kilo.
	t("kilo", "turn", "hooks+pane", "TestKiloTurnsAndExit"),
	t("kilo", "allow", "hooks+pane", "TestKiloTurnsAndExit"),
	t("kilo", "deny", "hooks+pane", "TestKiloDenyAndError", "TestKiloStopThenTurnDone"),
	t("kilo", "esc", "hooks+pane", "TestKiloDenyAndError", "TestKiloStopThenTurnDone"),
	t("kilo", "error", "hooks+pane", "TestKiloDenyAndError"),
	t("kilo", "exit", "hooks+pane", "TestKiloTurnsAndExit"),

	// Grok CLI.
	t("grok", "turn", "screen", "TestGrokTurnsAndExit"),
	t("grok", "allow", "screen", "TestGrokTurnsAndExit"),
	t("grok", "deny", "screen", "TestGrokDenyEscAndError"),
	t("grok", "esc", "screen", "TestGrokDenyEscAndError"),
	t("grok", "error", "screen", "TestGrokDenyEscAndError"),
	t("grok", "exit", "screen", "TestGrokTurnsAndExit"),

	// Continue.
	t("continue", "turn", "screen", "TestContinueTurnsAndExit"),
	t("continue", "allow", "screen", "TestContinueTurnsAndExit"),
	t("continue", "deny", "screen", "TestContinueDenyAndEsc"),
	t("continue", "esc", "screen", "TestContinueDenyAndEsc"),
	t("continue", "exit", "screen", "TestContinueTurnsAndExit"),
}

func init() {
	// Continue has no hooks, and agy cannot run here: every such cell is
	// n/a with that reason.
	for _, c := range Classes {
		for _, m := range Modes {
			if m.ID != "screen" {
				Cells = append(Cells, na("continue", c.ID, m.ID, noHooks))
			}
			Cells = append(Cells, na("agy", c.ID, m.ID, notRunning))
		}
	}
}

func init() {
	// Grok CLI fires no hooks and Mew installs nothing for it.
	for _, c := range Classes {
		for _, m := range []string{"hooks+pane", "hooks"} {
			Cells = append(Cells, na("grok", c.ID, m, noHooks))
		}
	}
}

// Find returns the cell of agent, class and mode, and whether it is
// declared.
func Find(agent, class, mode string) (Cell, bool) {
	for _, c := range Cells {
		if c.Agent == agent && c.Class == class && c.Mode == mode {
			return c, true
		}
	}
	return Cell{}, false
}

// Markdown is the matrix as a page (e2e/MATRIX.md): per agent, a row per
// class, a column per mode; a cell lists its tests, says n/a and why, or
// is a gap ("—").
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Conformance matrix\n\n")
	b.WriteString("Generated by `make conformance` from `e2e/matrix/matrix.go` (issue 35); `go test ./e2e/matrix` fails when this\n")
	b.WriteString("page is stale or a cell names a test that does not exist. Each test runs the real CLI (`make e2e`). A gap (—) is a\n")
	b.WriteString("class no scenario walks yet in that mode.\n\n")
	covered, nas, gaps := 0, 0, 0
	for _, a := range Agents {
		fmt.Fprintf(&b, "## %s\n\n| class |", a)
		for _, m := range Modes {
			fmt.Fprintf(&b, " %s |", m.ID)
		}
		b.WriteString("\n|---|")
		for range Modes {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, c := range Classes {
			fmt.Fprintf(&b, "| %s |", c.Title)
			for _, m := range Modes {
				cell, ok := Find(a, c.ID, m.ID)
				switch {
				case !ok:
					gaps++
					b.WriteString(" — |")
				case cell.NA != "":
					nas++
					fmt.Fprintf(&b, " n/a: %s |", cell.NA)
				default:
					covered++
					fmt.Fprintf(&b, " %s |", strings.Join(cell.Tests, ", "))
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d cells: %d walked by a test, %d n/a, %d gaps.\n", covered+nas+gaps, covered, nas, gaps)
	return b.String()
}
