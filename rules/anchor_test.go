package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

// A dialog is where the agent draws it: at the bottom, in place of its
// input box. A model reply that quotes a dialog's words sits in the
// transcript above the input box and is not a prompt (issue 22: a Claude
// reply quoting "Do you want to proceed? / ❯ 1. Yes" was shown as
// waiting(permission) while the session was done). The screens are laid
// out as each agent drew them in its recordings (testdata/fixtures).
func TestQuotedDialogIsNotAPrompt(t *testing.T) {
	claudeRule := strings.Repeat("─", 60)
	claudeBox := claudeRule + "\n❯\u00a0\n" + claudeRule + "\n  ⏸ manual mode on"
	claudeDialog := " Bash command\n touch x\n Do you want to proceed?\n ❯ 1. Yes\n   2. Yes, and always allow access\n   3. No\n\n Esc to cancel · Tab to amend"
	claudeAsk := " ☐ Framework\n\nWhich framework?\n\n❯ 1. React\n  2. Vue\n" + claudeRule + "\n  4. Chat about this\n\nEnter to select · ↑/↓ to navigate · Esc to cancel"

	codexComposer := "› Ask Codex to do anything\n\n  ? for shortcuts                                   100% context left"
	codexDialog := "  Would you like to run the following command?\n\n  $ touch x\n\n› 1. Yes, proceed (y)\n  2. No, and tell Codex what to do differently (esc)\n\n  Press enter to confirm or esc to cancel"

	geminiRule := strings.Repeat("─", 60)
	geminiBox := geminiRule + "\n Shift+Tab to accept edits\n\n >   Type your message or @path/to/file\n\n ~/proj        no sandbox       gemini-2.5-flash"
	geminiDialog := "╭──────────────╮\n│ ? Shell  touch x │\n│ Allow execution of [Shell]? │\n│ ● 1. Allow once │\n│   2. Allow for this session │\n╰──────────────╯"

	openCodeBox := "  ┃  Build · Fake Model Fake\n  ╹" + strings.Repeat("▀", 60) + "\n   ⬝⬝⬝⬝  esc interrupt      ctrl+p commands"
	openCodeDialog := "  ┃  △ Permission required\n  ┃    # Shell command\n  ┃  $ touch x\n  ┃   Allow once   Allow always   Reject     enter confirm\n  ┃"

	// Qwen Code (0.24.4, its recordings and the e2e walk): the dialog's
	// question has its options under it; a reply's quote, streaming, is
	// the last row of the transcript over the spinner row.
	qwenDialog := "  ? Shell touch x (Create a marker file) ←\n     touch x\n   Allow execution of: 'touch'?\n\n   › 1. Yes, allow once\n     2. Always allow run 'touch *' commands in this project\n     4. No, suggest changes (esc)\n  ⠏ Waiting for user confirmation..."
	qwenQuote := "  > please mew-e2e-quote\n  ◆︎ The dialogs read:\n\n    Allow execution of: 'touch x'?\n\n    △ Permission required\n  ⠏ Sketching the answer… (3s · esc to cancel)"

	// Copilot CLI 1.0.102 (its census): the dialog is a box; a reply is
	// "● " and rows indented under it.
	copilotDialog := "╭────────────╮\n│ Create a marker file │\n│ ╭──────╮ │\n│ │ touch x │ │\n│ ╰──────╯ │\n│ Do you want to run this command? │\n│ │\n│ ❯ 1. Yes │\n│   3. No, and tell Copilot what to do differently (Esc to stop) │\n╰────────────╯"
	copilotQuote := " ❯ please mew-e2e-quote\n\n ● The dialogs read:\n\n   Do you want to run this command?\n\n   Nobody is asked anything here.\n\n ~/proj [⎇ master]\n" + strings.Repeat("─", 60) + "\n❯\n" + strings.Repeat("─", 60) + "\n ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab"

	// pi 0.73.1 with its permission gate (the e2e walk): the dialog takes
	// the editor's place between its two rules; a reply's rows are
	// indented as the dialog's first row is.
	piRule := strings.Repeat("─", 60)
	piFooter := "\n" + piRule + "\n/tmp/proj (master)\n↑40 ↓20 0.0%/128k (auto)                (fake) fake-model"
	piDialog := " please mew-e2e-danger\n $ rm -rf x && sleep 3\n ⠸ Working...\n" + piRule + "\n ⚠️ Dangerous command:\n   rm -rf x && sleep 3\n Allow?\n → Yes\n   No\n ↑↓ navigate  enter select  escape/ctrl+c cancel" + piFooter
	piQuote := " please mew-e2e-quote\n The dialogs read:\n ⚠️ Dangerous command: rm -rf x\n Nobody is asked anything here.\n" + piRule + piFooter

	cases := []struct {
		agent, name, screen string
		want                string
		reason              session.Reason
	}{
		{"claude", "dialog", "❯ please bash\n\n● Creating a file\n" + claudeRule + "\n" + claudeDialog, session.ScreenBlocked, session.ReasonPermission},
		{"claude", "question", "❯ please ask\n" + claudeRule + "\n" + claudeAsk, session.ScreenBlocked, session.ReasonQuestion},
		{"claude", "reply quoting a dialog", "❯ what does it ask?\n\n● It shows:\n" + claudeDialog + "\n\n✻ Worked for 2s\n" + claudeBox + " · ? for shortcuts", session.ScreenIdle, ""},
		{"claude", "reply quoting a question", "❯ what does it ask?\n\n● It shows:\n" + claudeAsk + "\n\n" + claudeBox + " · ? for shortcuts", session.ScreenIdle, ""},
		{"claude", "reply quoting a dialog, streaming", "❯ what does it ask?\n\n● It shows:\n" + claudeDialog + "\n\n✻ Burrowing…\n" + claudeBox + " · esc to interrupt", session.ScreenWorking, ""},
		{"codex", "dialog", "› please mew-shell\n\n• Running touch x\n\n" + codexDialog, session.ScreenBlocked, session.ReasonPermission},
		{"codex", "reply quoting a dialog", "› what does it ask?\n\n• It shows:\n" + codexDialog + "\n\n" + codexComposer, session.ScreenIdle, ""},
		{"gemini", "dialog", " > please mew-bash\n\n" + geminiDialog, session.ScreenBlocked, session.ReasonPermission},
		{"gemini", "reply quoting a dialog", " > what does it ask?\n\n✦ It shows:\n" + geminiDialog + "\n\n" + geminiBox, session.ScreenIdle, ""},
		{"copilot", "dialog", " ❯ please mew-bash\n\n $ Shell Create a marker file\n   touch x\n\n" + copilotDialog, session.ScreenBlocked, session.ReasonPermission},
		{"copilot", "reply quoting a dialog", copilotQuote, session.ScreenIdle, ""},
		{"cline", "dialog", fixtureText(t, "../testdata/fixtures/cline-3.0.65/run-cl2/07-approval-2.txt"), session.ScreenBlocked, session.ReasonPermission},
		{"cline", "reply quoting a dialog", " ❯ please mew-e2e-quote\n * The dialogs read:\n\n   [y] Approve  [n] Deny\n\n   Nobody is asked anything here.\n\n   More of the reply.\n   And more.\n ⠹ Thinking... (esc to cancel)\n fake-model (10) $0.00\n proj (master)\n Auto-approve all disabled (Shift+Tab)", session.ScreenWorking, ""},
		{"pi", "dialog", piDialog, session.ScreenBlocked, session.ReasonPermission},
		{"pi", "reply quoting a dialog", piQuote, session.ScreenIdle, ""},
		{"qwen", "dialog", "  > please mew-bash\n" + qwenDialog, session.ScreenBlocked, session.ReasonPermission},
		{"qwen", "reply quoting a dialog, streaming", qwenQuote, session.ScreenWorking, ""},
		{"opencode", "dialog", "  ┃  please mew-bash\n\n     $ touch x\n\n" + openCodeDialog, session.ScreenBlocked, session.ReasonPermission},
		{"opencode", "reply quoting a dialog", "  ┃  what does it ask?\n\n     It shows:\n" + openCodeDialog + "\n\n" + openCodeBox, session.ScreenWorking, ""},
		// Kilo draws OpenCode 1.18's screens.
		{"kilo", "dialog", "  ┃  please mew-bash\n\n     $ touch x\n\n" + openCodeDialog, session.ScreenBlocked, session.ReasonPermission},
		{"kilo", "reply quoting a dialog", "  ┃  what does it ask?\n\n     It shows:\n" + openCodeDialog + "\n\n" + openCodeBox, session.ScreenWorking, ""},
	}
	for _, c := range cases {
		set := Embedded().Set(c.agent)
		res := set.Classify(Frame{Rows: strings.Split(c.screen, "\n")})
		if res.State != c.want || (c.reason != "" && res.Reason != c.reason) {
			t.Errorf("%s, %s: got %s %s (%s), want %s %s", c.agent, c.name, res.State, res.Reason, res.Rule, c.want, c.reason)
		}
	}
}

// An input box pattern limits only blocked rules, and only to the rows
// below its last match; a set without one reads the whole screen.
// Qwen Code's dialog as the e2e walk drew it, its scrollbar at the right
// edge of every row (a blank row between the question and its options
// holds only the scrollbar): its question's rule reads it.
func TestQwenDialogWithItsScrollbar(t *testing.T) {
	data, err := os.ReadFile("testdata/screens/qwen-code-0.24.4/1-dialog.txt")
	if err != nil {
		t.Fatal(err)
	}
	res := Embedded().Set("qwen").Classify(Frame{Rows: strings.Split(string(data), "\n")})
	if res.State != session.ScreenBlocked || res.Rule != "qwen/blocked#4" {
		t.Errorf("got %s by %s, want blocked by qwen/blocked#4 (the permission question)", res.State, res.Rule)
	}
}

// fixtureText is a recorded screen without its header row.
func fixtureText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\n")
	return rest
}

func TestInputBoxLimitsBlockedRulesToTheRowsBelowIt(t *testing.T) {
	doc := "agent = \"t\"\ninput_box = '^> '\n[[rule]]\nstate = \"blocked\"\nscreen = 'Proceed\\?'\n[[rule]]\nstate = \"idle\"\nscreen = 'Proceed\\?'\n"
	set, _, err := Parse("t.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		screen, want string
	}{
		{"> one\nProceed?", session.ScreenBlocked},
		{"Proceed?\n> one", session.ScreenIdle},
		{"> one\nProceed?\n> two", session.ScreenIdle},
		{"> one\n> two\nProceed?\nfooter", session.ScreenBlocked},
		{"Proceed?", session.ScreenBlocked},
	} {
		if got := set.Classify(Frame{Rows: strings.Split(c.screen, "\n")}).State; got != c.want {
			t.Errorf("%q: %s, want %s", c.screen, got, c.want)
		}
	}
	plain, _, err := Parse("t.toml", []byte(strings.Replace(doc, "input_box = '^> '\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.Classify(Frame{Rows: []string{"Proceed?", "> one"}}).State; got != session.ScreenBlocked {
		t.Errorf("without an input box: %s, want blocked", got)
	}
}
