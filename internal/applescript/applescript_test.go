package applescript

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The focus script Mew sent iTerm2 until now: `tab` inside the tell is
// iTerm2's tab class, so the answer carried the word "tab" (seen with od -c
// on a Mac by others), never a tab character.
const oldITermFocus = "tell application id \"com.googlecode.iterm2\" to tell current session of current window to return (unique id) & tab & (tty)"

func TestLintFindsADictionaryWordUsedAsASeparator(t *testing.T) {
	bad := map[string]string{
		"iTerm2 one-liner": oldITermFocus,
		"Terminal block":   "tell application id \"com.apple.Terminal\"\n\treturn (tty of selected tab of front window) & tab & \"x\"\nend tell",
		"Ghostty (tab)":    "tell application id \"com.mitchellh.ghostty\"\n\tset r to (name of front window) & (tab) & \"x\"\nend tell",
		"Chrome by name":   "tell application \"Google Chrome\" to return (title of active tab of front window) & tab & \"x\"",
		"delimiters":       "tell application id \"com.googlecode.iterm2\"\n\tset AppleScript's text item delimiters to tab\nend tell",
	}
	for name, s := range bad {
		if p := Lint(s); len(p) != 1 || !strings.Contains(p[0].Text, `"tab"`) {
			t.Errorf("%s: %v", name, p)
		}
	}
	good := map[string]string{
		"joined outside the tell": "tell application id \"com.googlecode.iterm2\"\n\tset i to unique id of current session of current window\nend tell\nreturn i & tab & \"x\"",
		"linefeed inside":         "tell application id \"com.googlecode.iterm2\" to return \"ok\" & linefeed & (name of current session of current window)",
		"a term as an object":     "tell application id \"com.apple.Terminal\"\n\trepeat with t in tabs of front window\n\t\tif tty of t is \"x\" then set selected tab of front window to t\n\tend repeat\nend tell",
		"string literal":          "tell application id \"com.googlecode.iterm2\" to return \"tab\" & \"x\"",
		"comment":                 "tell application id \"com.googlecode.iterm2\" -- x & tab & y\nend tell",
	}
	for name, s := range good {
		if p := Lint(s); len(p) != 0 {
			t.Errorf("%s: %v", name, p)
		}
	}
}

// Model prints what osascript would: the old iTerm2 script's answer has
// the word "tab" between the two values.
func TestModelPrintsTheAppsTermAsItsName(t *testing.T) {
	props := map[string]string{"unique id": "GUID", "tty": "/dev/ttys004"}
	got, err := Model(oldITermFocus, props)
	if err != nil || got != "GUIDtab/dev/ttys004\n" {
		t.Errorf("old: %q %v", got, err)
	}
	fixed := "tell application id \"com.googlecode.iterm2\"\n\ttell current session of current window\n\t\tset i to unique id\n\t\tset y to tty\n\tend tell\nend tell\nreturn i & tab & y"
	if got, err := Model(fixed, props); err != nil || got != "GUID\t/dev/ttys004\n" {
		t.Errorf("fixed: %q %v", got, err)
	}
}

// Every AppleScript Mew sends: the script files (and the golden copies of
// the scripts built from them, testdata/scripts) and every Go string
// literal that tells an application something.
func TestLintEveryScriptMewSends(t *testing.T) {
	root := "../.."
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root || p == filepath.Join(root, "internal", "applescript") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(p, ".applescript"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n++
			for _, prob := range Lint(string(data)) {
				t.Errorf("%s: %s", p, prob)
			}
		case strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go"):
			f, err := parser.ParseFile(gotoken.NewFileSet(), p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(x ast.Node) bool {
				lit, ok := x.(*ast.BasicLit)
				if !ok || lit.Kind != gotoken.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || !strings.Contains(s, "tell application") {
					return true
				}
				n++
				for _, prob := range Lint(s) {
					t.Errorf("%s: %s", p, prob)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d scripts found", n)
	}
}
