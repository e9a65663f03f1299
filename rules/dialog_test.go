package rules_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// recordedScreens lists every recorded screen of an agent, in order per
// run, as the rules see it (Claude's rebuilt from its raw output).
func recordedScreens(t *testing.T, agent string) map[string][]rules.Frame {
	t.Helper()
	out := map[string][]rules.Frame{}
	switch agent {
	case "claude":
		runs, _ := filepath.Glob(filepath.Join(fixtures, "claude-code-2.1.328", "*", "screen.raw"))
		for _, rawPath := range runs {
			dir := filepath.Dir(rawPath)
			raw, err := os.ReadFile(rawPath)
			if err != nil {
				t.Fatal(err)
			}
			readLines(t, filepath.Join(dir, "screens.jsonl"), func(line []byte) {
				var p struct {
					RawBytes int `json:"raw_bytes"`
				}
				json.Unmarshal(line, &p)
				e := screen.New(32, 120)
				e.Write(raw[:p.RawBytes])
				out[dir] = append(out[dir], rules.Frame{Rows: e.Snapshot().Rows})
			})
		}
	case "codex":
		runs, _ := filepath.Glob(filepath.Join(fixtures, "codex-0.169.0", "*", "samples.jsonl"))
		for _, path := range runs {
			dir := filepath.Dir(path)
			readLines(t, path, func(line []byte) {
				var p struct {
					Title  string `json:"title"`
					Screen string `json:"screen"`
				}
				json.Unmarshal(line, &p)
				data, err := os.ReadFile(filepath.Join(dir, "screens", p.Screen+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				out[dir] = append(out[dir], rules.Frame{Rows: strings.Split(string(data), "\n"), Title: p.Title})
			})
		}
	default:
		glob := map[string]string{"opencode": "opencode-1.18.33", "gemini": "gemini-cli-0.61.0"}[agent]
		runs, _ := filepath.Glob(filepath.Join(fixtures, glob, "*", "screens.jsonl"))
		for _, path := range runs {
			dir := filepath.Dir(path)
			readLines(t, path, func(line []byte) {
				var p struct {
					Screen string `json:"screen"`
				}
				json.Unmarshal(line, &p)
				out[dir] = append(out[dir], rules.Frame{Rows: strings.Split(p.Screen, "\n")})
			})
		}
	}
	return out
}

// TestDialogsOfRecordedRuns reads the dialog of every blocked screen of the
// recorded real runs: the options each agent drew, the keys that pick
// them, and a dialog text that stays the same while the dialog is up (an
// answer types only while it does).
func TestDialogsOfRecordedRuns(t *testing.T) {
	type opt struct {
		N     int
		Label string
		Keys  string
	}
	want := map[string][]opt{
		"claude/permission": {
			{1, "Yes", "1"},
			{2, "Yes, and always allow access to /Users/dev/proj from this project", "2"},
			{3, "Yes, and switch to auto mode · auto mode handles these prompts for you", "3"},
			{4, "No", "4"},
		},
		// "3. Type something." and "4. Chat about this" open a text box.
		"claude/ask": {{1, "React", "1"}, {2, "Vue", "2"}},
		"codex/b-approve": {
			{1, "Yes, proceed", "y"},
			{2, "Yes, and don't ask again for commands that start with `touch made-by-codex`", "p"},
			{3, "No, and tell Codex what to do differently", "Escape"},
		},
		"gemini/perm-allow":   {{1, "Allow once", "1"}, {2, "Allow for this session", "2"}, {3, "No, suggest changes (esc)", "3"}},
		"opencode/perm-allow": {{1, "Reject", "Escape"}},
	}
	book := rules.Embedded()
	seen := map[string]bool{}
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		set := book.Set(agent)
		for dir, frames := range recordedScreens(t, agent) {
			name := agent + "/" + filepath.Base(dir)
			var episode []string // dialog texts of the current blocked run of frames
			for i, f := range frames {
				res := set.Classify(f)
				if res.State != session.ScreenBlocked {
					if distinct(episode) > 1 {
						t.Errorf("%s: one dialog read as %d different texts: %q", name, distinct(episode), episode)
					}
					episode = nil
					continue
				}
				d := set.Dialog(f.Rows, res)
				if len(d.Options) == 0 {
					// Some blocked screens are no dialog of options (Codex's
					// hook review runs before the recorded turn).
					t.Logf("%s frame %d: blocked by %s with no options", name, i, res.Rule)
					continue
				}
				episode = append(episode, d.Text)
				var got []opt
				for _, o := range d.Options {
					got = append(got, opt{o.N, o.Label, strings.Join(o.Keys, " ")})
				}
				w, ok := want[name]
				if !ok {
					t.Errorf("%s frame %d: options %v where none were expected", name, i, got)
					continue
				}
				seen[name] = true
				if !reflect.DeepEqual(got, w) {
					t.Errorf("%s frame %d: options\n%v\nwant\n%v\nscreen:\n%s", name, i, got, w, strings.Join(f.Rows, "\n"))
				}
			}
			if distinct(episode) > 1 {
				t.Errorf("%s: one dialog read as %d different texts: %q", name, distinct(episode), episode)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s: no blocked screen with options found", name)
		}
	}
}

func distinct(texts []string) int {
	m := map[string]bool{}
	for _, s := range texts {
		m[s] = true
	}
	return len(m)
}

// claudePlan is Claude Code 2.1.328's plan dialog as tmux showed it
// (--permission-mode plan, ExitPlanMode; captured in the end-to-end run).
const claudePlan = ` ▐██████   Claude Code v2.1.328
▝▜██████▀  Opus 5.5 · API Usage Billing
 ▝▝ ▁ ▝▝   /tmp/proj
❯ please mew-e2e-plan
▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔
  ────────────────────────────────────────────────────────────────────────────
   Exit plan mode?
    Claude wants to exit plan mode
    ❯ 1. Yes, and switch to default (ask each time) for this session
      2. No`

func TestDialogText(t *testing.T) {
	set := rules.Embedded().Set("claude")
	dialog := func(screen string) rules.Dialog {
		f := rules.Frame{Rows: strings.Split(screen, "\n")}
		return set.Dialog(f.Rows, set.Classify(f))
	}
	plan := dialog(claudePlan)
	if len(plan.Options) != 2 || plan.Options[0].Label != "Yes, and switch to default (ask each time) for this session" || plan.Options[1].Label != "No" {
		t.Fatalf("plan options %+v", plan.Options)
	}
	if !strings.HasPrefix(plan.Text, "────") || !strings.Contains(plan.Text, "Exit plan mode?\nClaude wants to exit plan mode\n1. Yes") || strings.Contains(plan.Text, "Claude Code v") {
		t.Errorf("plan dialog text %q", plan.Text)
	}
	// The highlight on another option: the same dialog.
	moved := strings.Replace(strings.Replace(claudePlan, "❯ 1. Yes", "  1. Yes", 1), "  2. No", "❯ 2. No", 1)
	if got := dialog(moved); got.Text != plan.Text || len(got.Options) != 2 {
		t.Errorf("moving the highlight changed the dialog: %q vs %q", got.Text, plan.Text)
	}
	// The command in a permission dialog is part of it: another command is
	// another dialog.
	perm := func(cmd string) string {
		return "❯ please\n" + strings.Repeat("─", 60) + "\n Bash command\n " + cmd + "\n Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend"
	}
	a, b := dialog(perm("touch a")), dialog(perm("rm -rf b"))
	if a.Text == b.Text || !strings.Contains(b.Text, "rm -rf b") || len(a.Options) != 2 {
		t.Errorf("two commands, dialog texts %q and %q", a.Text, b.Text)
	}
}

func TestDialogRefusesListsThatAreNotTheDialog(t *testing.T) {
	set := rules.Embedded().Set("claude")
	cases := map[string]string{
		// The model's own numbered list, far above a dialog whose options
		// are off the screen.
		"list far above": "1. Fix the bug\n2. Add a test\n" + strings.Repeat("text\n", 6) + "Esc to cancel · Tab to amend",
		// A list that does not count down to 1.
		"no option 1": " Do you want to proceed?\n   2. Yes\n   3. No\n Esc to cancel · Tab to amend",
		// A run that does not count down one by one.
		"broken run": " Do you want to proceed?\n ❯ 1. Yes\n   3. Maybe\n   2. No\n Esc to cancel · Tab to amend",
	}
	for name, s := range cases {
		f := rules.Frame{Rows: strings.Split(s, "\n")}
		res := set.Classify(f)
		if res.State != session.ScreenBlocked {
			t.Fatalf("%s: not blocked (%s)", name, res.Rule)
		}
		if d := set.Dialog(f.Rows, res); len(d.Options) != 0 {
			t.Errorf("%s: options %+v", name, d.Options)
		}
	}
	// Not blocked: no dialog at all.
	idle := rules.Frame{Rows: []string{"1. Yes", "2. No", "❯ ", "? for shortcuts"}}
	if d := set.Dialog(idle.Rows, set.Classify(idle)); d.Text != "" || d.Options != nil {
		t.Errorf("idle screen read as a dialog: %+v", d)
	}
}

func TestAnswerSpecRefused(t *testing.T) {
	head := "agent = \"x\"\n[[rule]]\nstate = \"blocked\"\nscreen = 'a'\n"
	cases := map[string]string{
		"shell in keys":    "[answer]\noption = '(\\d)\\. (.+)'\nkeys = [\"$(rm -rf ~)\"]\n",
		"two chars":        "[answer]\noption = '(\\d)\\. (.+)'\nkeys = [\"yy\"]\n",
		"no groups":        "[answer]\noption = 'x'\nkeys = [\"{n}\"]\n",
		"keys no option":   "[answer]\nkeys = [\"{n}\"]\n",
		"option no keys":   "[answer]\noption = '(\\d)\\. (.+)'\n",
		"choice bad key":   "[[answer.choice]]\nlabel = \"Go\"\nkeys = [\"{n}\"]\n",
		"choice no label":  "[[answer.choice]]\nkeys = [\"Enter\"]\n",
		"unknown answer k": "[answer]\ntype = 'Enter'\n",
	}
	for name, doc := range cases {
		_, _, err := rules.Parse("x.toml", []byte(head+doc))
		var fe *rules.FileError
		if err == nil || !errorsAs(err, &fe) || fe.Line == 0 {
			t.Errorf("%s: got %v, want a FileError with a line", name, err)
		}
	}
	if _, _, err := rules.Parse("x.toml", []byte(head+"[answer]\noption = '(\\d)\\. (.+)'\nkeys = [\"Down\", \"{n}\", \"Enter\"]\n")); err != nil {
		t.Errorf("a good [answer] table refused: %v", err)
	}
}

func errorsAs(err error, fe **rules.FileError) bool {
	e, ok := err.(*rules.FileError)
	if ok {
		*fe = e
	}
	return ok
}

func ExampleSet_Dialog() {
	set := rules.Embedded().Set("claude")
	f := rules.Frame{Rows: strings.Split(strings.Repeat("─", 40)+"\n Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend", "\n")}
	for _, o := range set.Dialog(f.Rows, set.Classify(f)).Options {
		fmt.Println(o.N, o.Label, o.Keys)
	}
	// Output:
	// 1 Yes [1]
	// 2 No [2]
}

// FuzzDialog: any screen text reads as a dialog without a panic, and what
// it offers is always well formed: numbers 1-9, one-line labels, keys an
// answer may type.
func FuzzDialog(f *testing.F) {
	f.Add(claudePlan)
	f.Add(" Do you want to proceed?\n ❯ 1. Yes\n   2. No\n Esc to cancel · Tab to amend")
	f.Add("│ ● 1. Allow once │\n│   2. Allow for this session │\n╰──╯")
	f.Add("› 1. Yes, proceed (y)\n  3. No (esc)\nPress enter to confirm or esc to cancel")
	f.Add("△ Permission required\n Allow once   Allow always   Reject")
	book := rules.Embedded()
	f.Fuzz(func(t *testing.T, s string) {
		rows := strings.Split(s, "\n")
		for _, agent := range book.Agents() {
			set := book.Set(agent)
			res := set.Classify(rules.Frame{Rows: rows})
			res.State = session.ScreenBlocked // read it as a dialog whatever it is
			for _, o := range set.Dialog(rows, res).Options {
				if o.N < 1 || o.N > 9 || strings.ContainsAny(o.Label, "\n\r\x1b") || len(o.Keys) == 0 {
					t.Fatalf("%s: option %+v", agent, o)
				}
				for _, k := range o.Keys {
					if !rules.ValidKey(k) {
						t.Fatalf("%s: key %q", agent, k)
					}
				}
			}
		}
	})
}

// OpenCode's selection shows only as a colour: a choice typed as Enter
// would take whatever is selected, not the choice named.
func TestOpenCodeChoicesNeverTypeTheSelection(t *testing.T) {
	set := rules.Embedded().Set("opencode")
	if set == nil || set.Answer == nil {
		t.Fatal("no OpenCode answer rules")
	}
	for _, f := range set.Answer.Fixed {
		for _, k := range f.Keys {
			if k == "Enter" {
				t.Errorf("%q is typed as %v: Enter takes whatever OpenCode has selected", f.Label, f.Keys)
			}
		}
	}
}

// A file with several mistakes is refused with every one of them, each
// on its line (issue 40: `mew rules check` said only the first).
func TestParseReportsEveryMistake(t *testing.T) {
	doc := "agent = \"codex\"\nbogus = 1\n\n[[rule]]\nstate = \"sleeping\"\nscreen = 'x'\n\n[[rule]]\nstate = \"idle\"\n\n[[rule]]\nstate = \"working\"\nreason = \"permission\"\nscreen = 'y'\n"
	_, _, err := rules.Parse("x.toml", []byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{`x.toml:2: unknown key "bogus"`, "x.toml:4: rule 1: state must be one of", "x.toml:8: rule 2: needs at least one of", "x.toml:11: rule 3: reason is for blocked rules only"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in:\n%v", want, err)
		}
	}
}
