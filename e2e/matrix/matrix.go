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
	notRunning = "agy is not on npm here: it cannot run in the suite"
)

// Cells as the existing scenarios map to them. Each names the tests that
// walk the class on the real CLI.
var Cells = []Cell{
	// Claude Code.
	t("claude", "turn", "hooks+pane", "TestQuestionThenExit", "TestPermissionPrompt"),
	t("claude", "turn", "screen", "TestClaudeConformScreen", "TestNoInstallShortTurnsDone", "TestNoInstallShortTurnsDoneNoScreen"),
	t("claude", "turn", "hooks", "TestClaudeConformHooks"),
	t("claude", "allow", "hooks+pane", "TestPermissionPrompt", "TestAnswerPermissionApproved", "TestSubagentPermissionTwoInParallel"),
	t("claude", "allow", "screen", "TestClaudeConformScreen"),
	t("claude", "allow", "hooks", "TestClaudeConformHooks"),
	t("claude", "deny", "hooks+pane", "TestEscOnPermissionPrompt", "TestEscOnPromptThenTurnDone", "TestEscOnPromptThenTurnDoneWatch"),
	t("claude", "deny", "screen", "TestClaudeConformScreen"),
	t("claude", "deny", "hooks", "TestClaudeConformHooks"),
	t("claude", "esc", "hooks+pane", "TestEscDuringSlowTurn"),
	t("claude", "esc", "screen", "TestClaudeConformScreen"),
	t("claude", "esc", "hooks", "TestNoInstallRegistryOnlyEscNoScreen", "TestClaudeConformHooks"),
	t("claude", "error", "hooks+pane", "TestClaudeConformLauncher"),
	t("claude", "error", "screen", "TestClaudeConformScreen"),
	t("claude", "error", "hooks", "TestClaudeConformHooks"),
	t("claude", "quote", "hooks+pane", "TestReplyQuotesDialog", "TestReplyQuotesDialogWatch"),
	t("claude", "quote", "screen", "TestClaudeConformScreen"),
	t("claude", "quote", "hooks", "TestClaudeConformHooks"),
	t("claude", "question", "hooks+pane", "TestAskUserQuestion", "TestExitPlanMode"),
	t("claude", "question", "screen", "TestClaudeConformScreen"),
	t("claude", "question", "hooks", "TestNoInstallRegistryOnlyQuestionAndPlan", "TestClaudeConformHooks"),
	t("claude", "fresh", "hooks+pane", "TestClaudeConformLauncher"),
	t("claude", "fresh", "screen", "TestClaudeConformScreen", "TestNoInstallResumedNotDone"),
	t("claude", "fresh", "hooks", "TestClaudeConformHooks"),
	t("claude", "launcher", "hooks+pane", "TestClaudeConformLauncher"),
	t("claude", "launcher", "screen", "TestMewRunInTmuxClaude", "TestScreenMewRunNoInstall", "TestScreenTmuxPaneNoInstall"),
	na("claude", "launcher", "hooks", launcherUnread),
	t("claude", "kill", "hooks+pane", "TestClaudeConformLauncher"),
	na("claude", "kill", "screen", killByProcess),
	na("claude", "kill", "hooks", killByProcess),
	t("claude", "exit", "hooks+pane", "TestQuestionThenExit", "TestCloseAfterEscOnPrompt"),
	t("claude", "exit", "screen", "TestClaudeConformScreen"),
	t("claude", "exit", "hooks", "TestClaudeConformHooks"),

	// Codex.
	t("codex", "turn", "hooks+pane", "TestCodexPlainTurn"),
	t("codex", "turn", "screen", "TestCodexConformScreen"),
	t("codex", "turn", "hooks", "TestCodexUntrusted", "TestCodexConformHooks"),
	t("codex", "allow", "hooks+pane", "TestCodexApproval", "TestCodexAnswerApproved"),
	t("codex", "allow", "screen", "TestCodexUntrustedApprovalFromScreen", "TestScreenCodexMewRun", "TestCodexConformScreen"),
	t("codex", "allow", "hooks", "TestCodexConformHooks"),
	t("codex", "deny", "hooks+pane", "TestCodexDeclineWithEsc", "TestCodexStopThenTurnDone", "TestCodexConformLauncher"),
	t("codex", "deny", "screen", "TestScreenCodexMewRunDecline", "TestCodexConformScreen"),
	t("codex", "deny", "hooks", "TestCodexConformHooks"),
	t("codex", "esc", "hooks+pane", "TestCodexEscWhileWorking", "TestCodexStopThenTurnDone"),
	t("codex", "esc", "screen", "TestCodexConformScreen"),
	t("codex", "esc", "hooks", "TestCodexConformHooks"),
	t("codex", "error", "hooks+pane", "TestCodexHTTP500"),
	t("codex", "error", "screen", "TestCodexConformScreen"),
	t("codex", "error", "hooks", "TestCodexUntrusted", "TestCodexConformHooks"),
	t("codex", "quote", "hooks+pane", "TestCodexConformQuestion"),
	t("codex", "quote", "screen", "TestCodexConformScreen"),
	t("codex", "quote", "hooks", "TestCodexConformHooks"),
	t("codex", "question", "hooks+pane", "TestCodexConformQuestion"),
	t("codex", "question", "screen", "TestCodexConformScreen"),
	t("codex", "question", "hooks", "TestCodexConformHooks"),
	t("codex", "fresh", "hooks+pane", "TestCodexPlainTurn", "TestCodexConformLauncher"),
	t("codex", "fresh", "screen", "TestCodexConformScreen"),
	t("codex", "fresh", "hooks", "TestCodexConformHooks"),
	t("codex", "launcher", "hooks+pane", "TestCodexConformLauncher"),
	t("codex", "launcher", "screen", "TestMewRunInTmuxCodex"),
	na("codex", "launcher", "hooks", launcherUnread),
	t("codex", "kill", "hooks+pane", "TestCodexTUIKilledMidTurn"),
	na("codex", "kill", "screen", killByProcess+"; Codex's background server keeps a turn (and its approval) after the TUI is gone, in every mode"),
	na("codex", "kill", "hooks", killByProcess+"; Codex's background server keeps a turn (and its approval) after the TUI is gone, in every mode"),
	t("codex", "exit", "hooks+pane", "TestCodexQuitWhileIdle", "TestCodexToolCallsThenQuit"),
	t("codex", "exit", "screen", "TestCodexConformScreen"),
	t("codex", "exit", "hooks", "TestCodexConformHooks"),

	// OpenCode.
	t("opencode", "turn", "hooks+pane", "TestOpenCodeTurnsAndExit", "TestConformOpenCodeHooksPane"),
	t("opencode", "turn", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "turn", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "allow", "hooks+pane", "TestOpenCodeTurnsAndExit", "TestConformOpenCodeHooksPane"),
	t("opencode", "allow", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "allow", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "deny", "hooks+pane", "TestOpenCodeDenyAndError", "TestOpenCodeRejectWatch", "TestOpenCodeStopThenTurnDone", "TestConformOpenCodeHooksPane"),
	t("opencode", "deny", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "deny", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "esc", "hooks+pane", "TestOpenCodeDenyAndError", "TestOpenCodeStopThenTurnDone", "TestConformOpenCodeHooksPane"),
	t("opencode", "esc", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "esc", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "error", "hooks+pane", "TestOpenCodeDenyAndError", "TestConformOpenCodeHooksPane"),
	t("opencode", "error", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "error", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "quote", "hooks+pane", "TestConformOpenCodeHooksPane"),
	t("opencode", "quote", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "quote", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "question", "hooks+pane", "TestConformOpenCodeQuestionHooksPane"),
	t("opencode", "question", "screen", "TestConformOpenCodeQuestionScreen"),
	t("opencode", "question", "hooks", "TestConformOpenCodeQuestionHooks"),
	t("opencode", "fresh", "hooks+pane", "TestConformOpenCodeHooksPane"),
	t("opencode", "fresh", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "fresh", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "launcher", "hooks+pane", "TestConformOpenCodeHooksPane"),
	t("opencode", "launcher", "screen", "TestMewRunInTmuxOpenCode", "TestConformOpenCodeScreen"),
	t("opencode", "launcher", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "kill", "screen", "TestConformOpenCodeScreen"),
	t("opencode", "kill", "hooks", "TestConformOpenCodeHooks"),
	t("opencode", "exit", "hooks+pane", "TestOpenCodeTurnsAndExit", "TestConformOpenCodeHooksPane"),
	t("opencode", "kill", "hooks+pane", "TestConformOpenCodeHooksPaneKill"),
	t("opencode", "exit", "screen", "TestConformOpenCodeScreenExit"),
	t("opencode", "exit", "hooks", "TestConformOpenCodeHooksExit"),

	// Gemini CLI.
	t("gemini", "turn", "hooks+pane", "TestGeminiTurnsAndExit", "TestGeminiNoDoneOnTheWay", "TestConformGeminiHooksPane"),
	t("gemini", "turn", "screen", "TestConformGeminiScreen", "TestConformGeminiScreenBare"),
	t("gemini", "turn", "hooks", "TestConformGeminiHooks"),
	t("gemini", "allow", "hooks+pane", "TestGeminiTurnsAndExit", "TestConformGeminiHooksPane"),
	t("gemini", "allow", "screen", "TestConformGeminiScreenBare"),
	t("gemini", "allow", "hooks", "TestConformGeminiHooks"),
	t("gemini", "deny", "hooks+pane", "TestGeminiDenyAndError", "TestConformGeminiHooksPane"),
	t("gemini", "deny", "screen", "TestConformGeminiScreenBare"),
	na("gemini", "deny", "hooks", "Gemini CLI runs no hook for an Esc on its dialog (the wait ends at the next prompt): its pane is needed"),
	t("gemini", "esc", "hooks+pane", "TestGeminiNoDoneOnTheWay", "TestGeminiNoDoneOnTheWayWatch", "TestConformGeminiHooksPane"),
	t("gemini", "esc", "screen", "TestConformGeminiScreenBare"),
	na("gemini", "esc", "hooks", "Gemini CLI ends a stopped turn with an ordinary AfterAgent (its text so far as the reply): its pane is needed"),
	t("gemini", "error", "hooks+pane", "TestGeminiNoDoneOnTheWay", "TestGeminiDenyAndError", "TestConformGeminiHooksPane"),
	t("gemini", "error", "screen", "TestConformGeminiScreen", "TestConformGeminiScreenBare"),
	na("gemini", "error", "hooks", "Gemini CLI's hooks end an API error's turn as any other (AfterAgent, no reply): with the pane unread Mew says idle, never done (TestGeminiErrorHooksOnly, TestConformGeminiHooks)"),
	t("gemini", "quote", "hooks+pane", "TestConformGeminiHooksPane"),
	t("gemini", "quote", "screen", "TestConformGeminiScreen", "TestConformGeminiScreenBare"),
	t("gemini", "quote", "hooks", "TestConformGeminiHooks"),
	t("gemini", "question", "hooks+pane", "TestConformGeminiHooksPane", "TestConformGeminiPlanHooksPane"),
	t("gemini", "question", "screen", "TestConformGeminiScreen", "TestConformGeminiPlanScreen"),
	t("gemini", "question", "hooks", "TestConformGeminiHooks", "TestConformGeminiPlanHooks"),
	t("gemini", "fresh", "hooks+pane", "TestConformGeminiHooksPane"),
	t("gemini", "fresh", "screen", "TestConformGeminiScreen", "TestConformGeminiScreenBare"),
	t("gemini", "fresh", "hooks", "TestConformGeminiHooks"),
	t("gemini", "launcher", "hooks+pane", "TestConformGeminiHooksPane"),
	t("gemini", "launcher", "screen", "TestMewRunInTmuxGemini", "TestConformGeminiScreen"),
	t("gemini", "launcher", "hooks", "TestConformGeminiHooks"),
	t("gemini", "kill", "screen", "TestConformGeminiScreen", "TestConformGeminiScreenBare"),
	t("gemini", "kill", "hooks", "TestConformGeminiHooks"),
	t("gemini", "exit", "hooks+pane", "TestGeminiTurnsAndExit", "TestConformGeminiHooksPane"),
	t("gemini", "kill", "hooks+pane", "TestConformGeminiHooksPaneKill"),
	t("gemini", "exit", "screen", "TestConformGeminiScreenExit"),
	t("gemini", "exit", "hooks", "TestConformGeminiHooksExit"),

	// Amp. Its plugin says nothing of the approval dialog: a wait is the
	// screen's alone.
	t("amp", "turn", "hooks+pane", "TestAmpUnderInstall", "TestAmpConformHooksAndPane"),
	t("amp", "turn", "screen", "TestAmpPlainPane", "TestAmpUnderMewRun", "TestAmpConformScreen"),
	t("amp", "turn", "hooks", "TestAmpConformHooksOnly"),
	t("amp", "allow", "hooks+pane", "TestAmpUnderInstall", "TestAmpAnswerAllows"),
	t("amp", "allow", "screen", "TestAmpPlainPane", "TestAmpUnderMewRun"),
	na("amp", "allow", "hooks", "Amp's plugin says nothing of its dialog: the pane is needed"),
	t("amp", "deny", "hooks+pane", "TestAmpConformHooksAndPane", "TestAmpUnderInstall"),
	t("amp", "deny", "screen", "TestAmpConformScreen", "TestAmpPlainPane", "TestAmpUnderMewRun"),
	na("amp", "deny", "hooks", "Amp's plugin says nothing of its dialog: the pane is needed"),
	t("amp", "esc", "hooks+pane", "TestAmpConformHooksAndPane", "TestAmpUnderInstall"),
	t("amp", "esc", "screen", "TestAmpConformScreen", "TestAmpPlainPane", "TestAmpUnderMewRun"),
	t("amp", "esc", "hooks", "TestAmpConformHooksOnly"),
	t("amp", "error", "hooks+pane", "TestAmpConformHooksAndPane"),
	na("amp", "error", "screen", "how Amp's server reports a failed turn to the CLI is not known (the stand-in's failed turn draws nothing): only the plugin's agent.end error says it"),
	t("amp", "error", "hooks", "TestAmpConformHooksOnly"),
	t("amp", "quote", "hooks+pane", "TestAmpConformHooksAndPane"),
	t("amp", "quote", "screen", "TestAmpConformScreen"),
	na("amp", "quote", "hooks", "the pane is not read: Mew sees no dialog text, quoted or not"),
	na("amp", "question", "hooks+pane", "not scripted: the stand-in of Amp's server has no question tool, and none is known of Amp's protocol"),
	na("amp", "question", "screen", "not scripted: the stand-in of Amp's server has no question tool, and none is known of Amp's protocol"),
	na("amp", "question", "hooks", "not scripted: the stand-in of Amp's server has no question tool, and none is known of Amp's protocol"),
	t("amp", "fresh", "hooks+pane", "TestAmpConformHooksAndPane"),
	t("amp", "fresh", "screen", "TestAmpConformScreen"),
	na("amp", "fresh", "hooks", "Amp's plugin reports nothing before the first prompt (session.start comes with it): unlisted until then (TestAmpConformHooksOnly: never working, done or waiting)"),
	na("amp", "launcher", "hooks+pane", "the launcher is read off the process, the same in every mode: walked screen only"),
	t("amp", "launcher", "screen", "TestAmpUnderMewRun", "TestAmpConformScreen"),
	na("amp", "launcher", "hooks", "the launcher is read off the process, the same in every mode: walked screen only"),
	t("amp", "kill", "hooks+pane", "TestAmpConformHooksAndPane"),
	t("amp", "kill", "screen", "TestAmpConformScreen"),
	na("amp", "kill", "hooks", "Amp's plugin says nothing of its dialog: the pane is needed"),
	t("amp", "exit", "hooks+pane", "TestAmpUnderInstall"),
	t("amp", "exit", "screen", "TestAmpPlainPane", "TestAmpUnderMewRun"),
	t("amp", "exit", "hooks", "TestAmpConformHooksOnly"),

	// GitHub Copilot CLI.
	t("copilot", "turn", "hooks+pane", "TestCopilotTurnsAndExit", "TestConformCopilotHooksPane"),
	t("copilot", "turn", "screen", "TestCopilotWithoutHooks", "TestConformCopilotScreen"),
	t("copilot", "turn", "hooks", "TestConformCopilotHooks"),
	t("copilot", "allow", "hooks+pane", "TestCopilotTurnsAndExit", "TestConformCopilotHooksPane"),
	t("copilot", "allow", "screen", "TestConformCopilotScreen"),
	t("copilot", "allow", "hooks", "TestConformCopilotHooks", "TestCopilotAllowedByItsRules"),
	t("copilot", "deny", "hooks+pane", "TestCopilotDenyAndError", "TestConformCopilotHooksPane"),
	t("copilot", "deny", "screen", "TestCopilotWithoutHooks", "TestConformCopilotScreen"),
	t("copilot", "deny", "hooks", "TestConformCopilotHooks"),
	t("copilot", "esc", "hooks+pane", "TestCopilotDenyAndError"),
	na("copilot", "esc", "screen", "Copilot CLI 1.0.102 ignored every Esc Esc while a reply streamed in about half the conformance walks (after a long reply), in every mode: not walked here (TestCopilotDenyAndError stops one with its pane read)"),
	na("copilot", "esc", "hooks", "Copilot CLI 1.0.102 ignored every Esc Esc while a reply streamed in about half the conformance walks (after a long reply), in every mode: not walked here"),
	t("copilot", "error", "hooks+pane", "TestCopilotDenyAndError", "TestConformCopilotHooksPane"),
	t("copilot", "error", "screen", "TestConformCopilotScreen", "TestConformCopilotScreenRetriedError"),
	t("copilot", "error", "hooks", "TestConformCopilotHooks"),
	t("copilot", "quote", "hooks+pane", "TestConformCopilotHooksPane"),
	t("copilot", "quote", "screen", "TestConformCopilotScreen"),
	t("copilot", "quote", "hooks", "TestConformCopilotHooks"),
	t("copilot", "fresh", "hooks+pane", "TestConformCopilotHooksPane"),
	t("copilot", "fresh", "screen", "TestConformCopilotScreen"),
	t("copilot", "fresh", "hooks", "TestConformCopilotHooks"),
	t("copilot", "launcher", "hooks+pane", "TestConformCopilotHooksPane"),
	t("copilot", "launcher", "screen", "TestMewRunInTmuxCopilot", "TestConformCopilotScreen"),
	t("copilot", "launcher", "hooks", "TestConformCopilotHooks"),
	t("copilot", "kill", "screen", "TestConformCopilotScreen"),
	t("copilot", "kill", "hooks", "TestConformCopilotHooks"),
	t("copilot", "exit", "hooks+pane", "TestCopilotTurnsAndExit", "TestConformCopilotHooksPane"),
	t("copilot", "kill", "hooks+pane", "TestConformCopilotHooksPaneKill"),
	t("copilot", "exit", "screen", "TestConformCopilotScreenExit"),
	t("copilot", "exit", "hooks", "TestConformCopilotHooksExit"),
	t("copilot", "question", "hooks+pane", "TestConformCopilotHooksPane"),
	t("copilot", "question", "screen", "TestConformCopilotScreen"),
	t("copilot", "question", "hooks", "TestConformCopilotHooks"),

	// Qwen Code.
	t("qwen", "turn", "hooks+pane", "TestQwenTurnsAndExit", "TestConformQwenHooksPane"),
	t("qwen", "turn", "screen", "TestConformQwenScreenBare"),
	t("qwen", "turn", "hooks", "TestConformQwenHooks"),
	t("qwen", "allow", "hooks+pane", "TestQwenTurnsAndExit", "TestConformQwenHooksPane"),
	t("qwen", "allow", "screen", "TestConformQwenScreenBare"),
	t("qwen", "allow", "hooks", "TestConformQwenHooks"),
	t("qwen", "deny", "hooks+pane", "TestQwenDenyAndError", "TestQwenLinkedBinEsc", "TestConformQwenHooksPane"),
	t("qwen", "deny", "screen", "TestConformQwenScreenBare"),
	t("qwen", "deny", "hooks", "TestQwenLinkedBinEscHooksOnly", "TestConformQwenHooks"),
	t("qwen", "esc", "hooks+pane", "TestQwenDenyAndError", "TestConformQwenHooksPane"),
	t("qwen", "esc", "screen", "TestConformQwenScreenBare"),
	na("qwen", "esc", "hooks", "Qwen Code runs no hook when Esc stops a turn (no Stop; idle_prompt only after a denial): its pane is needed"),
	t("qwen", "error", "hooks+pane", "TestQwenDenyAndError", "TestConformQwenHooksPane"),
	t("qwen", "error", "screen", "TestConformQwenScreenBare"),
	t("qwen", "error", "hooks", "TestConformQwenHooks"),
	t("qwen", "quote", "hooks+pane", "TestConformQwenHooksPane"),
	t("qwen", "quote", "screen", "TestConformQwenScreenBare"),
	t("qwen", "quote", "hooks", "TestConformQwenHooks"),
	t("qwen", "fresh", "hooks+pane", "TestConformQwenHooksPane"),
	t("qwen", "fresh", "screen", "TestConformQwenScreenBare"),
	t("qwen", "fresh", "hooks", "TestConformQwenHooks"),
	t("qwen", "launcher", "hooks+pane", "TestQwenLinkedBinEsc", "TestConformQwenHooksPane"),
	t("qwen", "launcher", "screen", "TestConformQwenScreenBare"),
	t("qwen", "launcher", "hooks", "TestQwenLinkedBinEscHooksOnly", "TestConformQwenHooks"),
	t("qwen", "kill", "screen", "TestConformQwenScreenBare"),
	t("qwen", "kill", "hooks", "TestConformQwenHooks"),
	t("qwen", "exit", "hooks+pane", "TestQwenTurnsAndExit", "TestConformQwenHooksPane"),
	t("qwen", "kill", "hooks+pane", "TestConformQwenHooksPaneKill"),
	t("qwen", "exit", "screen", "TestConformQwenScreenExit"),
	t("qwen", "exit", "hooks", "TestConformQwenHooksExit"),
	t("qwen", "question", "hooks+pane", "TestConformQwenHooksPane", "TestConformQwenPlanHooksPane"),
	t("qwen", "question", "screen", "TestConformQwenScreenBare", "TestConformQwenPlanScreen"),
	t("qwen", "question", "hooks", "TestConformQwenHooks", "TestConformQwenPlanHooks"),

	// pi.
	t("pi", "turn", "hooks+pane", "TestPiTurnsAndExit", "TestConformPiHooksPane"),
	t("pi", "turn", "screen", "TestConformPiScreen"),
	t("pi", "allow", "hooks+pane", "TestPiTurnsAndExit", "TestConformPiHooksPane"),
	t("pi", "allow", "screen", "TestConformPiScreen"),
	t("pi", "deny", "hooks+pane", "TestPiDenyAndError", "TestConformPiHooksPane"),
	t("pi", "deny", "screen", "TestConformPiScreen"),
	t("pi", "esc", "hooks+pane", "TestConformPiHooksPane"),
	t("pi", "esc", "screen", "TestConformPiScreen"),
	t("pi", "error", "hooks+pane", "TestPiDenyAndError", "TestConformPiHooksPane"),
	t("pi", "error", "screen", "TestConformPiScreen"),
	t("pi", "quote", "hooks+pane", "TestConformPiHooksPane"),
	t("pi", "quote", "screen", "TestConformPiScreen"),
	t("pi", "fresh", "hooks+pane", "TestConformPiHooksPane"),
	t("pi", "fresh", "screen", "TestConformPiScreen"),
	t("pi", "launcher", "hooks+pane", "TestConformPiHooksPane"),
	t("pi", "launcher", "screen", "TestConformPiScreen"),
	t("pi", "kill", "screen", "TestConformPiScreen"),
	t("pi", "exit", "hooks+pane", "TestPiTurnsAndExit", "TestConformPiHooksPane"),
	t("pi", "kill", "hooks+pane", "TestConformPiHooksPaneKill"),
	t("pi", "exit", "screen", "TestConformPiScreenExit"),
	// pi's extension only (the pane unread): it sees the gate's dialog
	// by wrapping the ctx.ui all extensions share.
	t("pi", "turn", "hooks", "TestConformPiHooks"),
	t("pi", "allow", "hooks", "TestConformPiHooks"),
	t("pi", "deny", "hooks", "TestConformPiHooks"),
	t("pi", "esc", "hooks", "TestConformPiHooks"),
	t("pi", "error", "hooks", "TestConformPiHooks"),
	t("pi", "quote", "hooks", "TestConformPiHooks"),
	t("pi", "fresh", "hooks", "TestConformPiHooks"),
	t("pi", "launcher", "hooks", "TestConformPiHooks"),
	t("pi", "kill", "hooks", "TestConformPiHooks"),
	t("pi", "exit", "hooks", "TestConformPiHooksExit"),
	na("pi", "question", "hooks+pane", piNoQuestion),
	na("pi", "question", "screen", piNoQuestion),
	na("pi", "question", "hooks", piNoQuestion),

	// Cline.
	t("cline", "turn", "hooks+pane", "TestClineTurnsAndExit", "TestConformClineHooksPane"),
	t("cline", "turn", "screen", "TestConformClineScreen"),
	t("cline", "allow", "hooks+pane", "TestClineTurnsAndExit", "TestConformClineHooksPane"),
	t("cline", "allow", "screen", "TestConformClineScreen"),
	t("cline", "deny", "hooks+pane", "TestClineDenyAndError", "TestConformClineHooksPane"),
	t("cline", "deny", "screen", "TestConformClineScreen"),
	na("cline", "deny", "hooks", "Cline runs no hook for its approval dialog (PreToolUse fires for every call, before it decides to ask): with the pane unread Mew cannot show the wait, nor its end; it shows working meanwhile (TestConformClineHooks)"),
	t("cline", "esc", "hooks+pane", "TestConformClineHooksPane"),
	na("cline", "esc", "screen", "Cline draws no mark for a turn Esc stopped (its partial reply stays as a finished one's): only its hooks tell"),
	t("cline", "error", "hooks+pane", "TestClineDenyAndError", "TestConformClineHooksPane"),
	t("cline", "error", "screen", "TestConformClineScreen"),
	t("cline", "quote", "hooks+pane", "TestConformClineHooksPane"),
	t("cline", "quote", "screen", "TestConformClineScreen"),
	t("cline", "fresh", "hooks+pane", "TestConformClineHooksPane"),
	t("cline", "fresh", "screen", "TestConformClineScreen"),
	t("cline", "launcher", "hooks+pane", "TestConformClineHooksPane"),
	t("cline", "launcher", "screen", "TestConformClineScreen"),
	t("cline", "kill", "screen", "TestConformClineScreen"),
	t("cline", "exit", "hooks+pane", "TestClineTurnsAndExit", "TestConformClineHooksPane"),
	t("cline", "kill", "hooks+pane", "TestConformClineHooksPaneKill"),
	t("cline", "exit", "screen", "TestConformClineScreenExit"),
	// Cline's hooks only (the pane unread): its approval dialog has no
	// hook, so Mew shows the turn working while it is up.
	t("cline", "turn", "hooks", "TestConformClineHooks"),
	na("cline", "allow", "hooks", "Cline runs no hook for its approval dialog (PreToolUse fires for every call, before it decides to ask): with the pane unread Mew cannot show the wait; it shows working meanwhile (TestConformClineHooks)"),
	t("cline", "esc", "hooks", "TestConformClineHooks"),
	t("cline", "error", "hooks", "TestConformClineHooks"),
	t("cline", "quote", "hooks", "TestConformClineHooks"),
	t("cline", "fresh", "hooks", "TestConformClineHooks"),
	t("cline", "launcher", "hooks", "TestConformClineHooks", "TestConformClineHooksExit"),
	t("cline", "kill", "hooks", "TestConformClineHooks"),
	t("cline", "exit", "hooks", "TestConformClineHooksExit"),
	t("cline", "question", "hooks+pane", "TestClineQuestion"),
	t("cline", "question", "screen", "TestClineQuestionScreen"),
	t("cline", "question", "hooks", "TestClineQuestionHooks"),

	// Kilo.
	t("kilo", "turn", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "turn", "screen", "TestConformKiloScreen"),
	t("kilo", "turn", "hooks", "TestConformKiloHooks"),
	t("kilo", "allow", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "allow", "screen", "TestConformKiloScreen"),
	t("kilo", "allow", "hooks", "TestConformKiloHooks"),
	t("kilo", "deny", "hooks+pane", "TestKiloDenyAndError", "TestKiloStopThenTurnDone", "TestConformKiloHooksPane"),
	t("kilo", "deny", "screen", "TestConformKiloScreen"),
	t("kilo", "deny", "hooks", "TestConformKiloHooks"),
	t("kilo", "esc", "hooks+pane", "TestKiloDenyAndError", "TestKiloStopThenTurnDone", "TestConformKiloHooksPane"),
	t("kilo", "esc", "screen", "TestConformKiloScreen"),
	t("kilo", "esc", "hooks", "TestConformKiloHooks"),
	t("kilo", "error", "hooks+pane", "TestKiloDenyAndError", "TestConformKiloHooksPane"),
	t("kilo", "error", "screen", "TestConformKiloScreen"),
	t("kilo", "error", "hooks", "TestConformKiloHooks"),
	t("kilo", "quote", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "quote", "screen", "TestConformKiloScreen"),
	t("kilo", "quote", "hooks", "TestConformKiloHooks"),
	t("kilo", "fresh", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "fresh", "screen", "TestConformKiloScreen"),
	t("kilo", "fresh", "hooks", "TestConformKiloHooks"),
	t("kilo", "launcher", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "launcher", "screen", "TestConformKiloScreen"),
	t("kilo", "launcher", "hooks", "TestConformKiloHooks"),
	t("kilo", "kill", "screen", "TestConformKiloScreen"),
	t("kilo", "kill", "hooks", "TestConformKiloHooks"),
	t("kilo", "exit", "hooks+pane", "TestConformKiloHooksPane"),
	t("kilo", "kill", "hooks+pane", "TestConformKiloHooksPaneKill"),
	t("kilo", "exit", "screen", "TestConformKiloScreenExit"),
	t("kilo", "exit", "hooks", "TestConformKiloHooksExit"),
	t("kilo", "question", "hooks+pane", "TestConformKiloQuestionHooksPane"),
	t("kilo", "question", "screen", "TestConformKiloQuestionScreen"),
	t("kilo", "question", "hooks", "TestConformKiloQuestionHooks"),

	// Grok CLI.
	t("grok", "turn", "screen", "TestGrokTurnsAndExit", "TestConformGrokScreen"),
	t("grok", "allow", "screen", "TestGrokTurnsAndExit", "TestConformGrokScreen"),
	t("grok", "deny", "screen", "TestGrokDenyEscAndError", "TestConformGrokScreen"),
	t("grok", "esc", "screen", "TestGrokDenyEscAndError", "TestConformGrokScreen"),
	t("grok", "error", "screen", "TestGrokDenyEscAndError", "TestConformGrokScreen"),
	t("grok", "quote", "screen", "TestConformGrokScreen"),
	t("grok", "fresh", "screen", "TestConformGrokScreen"),
	t("grok", "launcher", "screen", "TestConformGrokScreen"),
	t("grok", "kill", "screen", "TestConformGrokScreen"),
	t("grok", "exit", "screen", "TestGrokTurnsAndExit"),
	na("grok", "question", "screen", "Grok CLI 0.0.34 has no question tool and no plan mode: its tools are view_file, create_file, str_replace_editor, edit_file, bash, search, create_todo_list, update_todo_list (dist/grok/tools.js); its one dialog confirms a call"),

	// Continue.
	t("continue", "turn", "screen", "TestContinueTurnsAndExit", "TestContinueConform", "TestContinueUnderMewRun"),
	t("continue", "allow", "screen", "TestContinueTurnsAndExit", "TestContinueUnderMewRun"),
	t("continue", "deny", "screen", "TestContinueDenyAndEsc", "TestContinueConform"),
	t("continue", "esc", "screen", "TestContinueDenyAndEsc", "TestContinueConform"),
	t("continue", "error", "screen", "TestContinueConform", "TestContinueUnderMewRun"),
	t("continue", "quote", "screen", "TestContinueConform"),
	t("continue", "question", "screen", "TestContinueConform"),
	t("continue", "fresh", "screen", "TestContinueConform"),
	t("continue", "launcher", "screen", "TestContinueConform", "TestContinueUnderMewRun"),
	t("continue", "kill", "screen", "TestContinueConform"),
	t("continue", "exit", "screen", "TestContinueTurnsAndExit", "TestContinueUnderMewRun"),
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

// Reasons of Claude Code's and Codex's n/a cells.
const (
	// launcherUnread: with the pane unread, how the CLI was started changes
	// nothing the hooks (and Claude Code's registry) say.
	// piNoQuestion: what pi's package says of itself.
	piNoQuestion   = "pi 0.73.1 has no question tool and no plan mode (core tools read, bash, edit, write, grep, find, ls; its README: \"No plan mode\"): only example extensions it does not load add them"
	launcherUnread = "the pane is not read: the launcher changes nothing the hooks say (the hooks+pane cell proves the pane is found)"
	// killByProcess: the process check decides an agent killed, in every
	// mode (combine rule 1); the hooks+pane cell walks it.
	killByProcess = "the process check decides it in every mode (combine rule 1): the hooks+pane cell walks it"
)
