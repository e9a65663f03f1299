package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/rules"
)

func TestRulesClassifyAndCheck(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MEW_HOME", home)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prompt := write("prompt.txt", " Do you want to proceed?\n ❯ 1. Yes\n   2. No\n")
	working := write("working.txt", "› x\n\n• Working (3s • esc to interrupt)\n")
	blank := write("blank.txt", "\n\n")
	var out, errs strings.Builder
	code := run([]string{"rules", "classify", "--agent", "claude", prompt, blank}, &out, &errs)
	if code != 0 || out.String() != prompt+"\tblocked\n"+blank+"\tunknown\n" {
		t.Fatalf("classify: %d %q %q", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"rules", "classify", "--agent", "codex", "--title", "⠙ proj", working}, &out, &errs); code != 0 || !strings.HasSuffix(out.String(), "\tworking\n") {
		t.Fatalf("classify with a title: %d %q", code, out.String())
	}
	if code := run([]string{"rules", "classify", "--agent", "nobody", prompt}, &out, &errs); code != 2 {
		t.Errorf("an unknown agent: exit %d", code)
	}

	// A broken override is refused, with file, line and reason; the
	// embedded rules stay in force.
	os.MkdirAll(filepath.Join(home, "rules"), 0o700)
	bad := filepath.Join(home, "rules", "claude.toml")
	os.WriteFile(bad, []byte("agent = \"claude\"\n[[rule]]\nstate = \"blocked\"\nscreen = '(x'\n"), 0o600)
	out.Reset()
	errs.Reset()
	if code := run([]string{"rules", "check"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), bad+":4: rule.screen: bad pattern \"(x\"") || strings.Contains(errs.String(), "(?m)") {
		t.Fatalf("check: %d %q %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"rules", "classify", "--agent", "claude", prompt}, &out, &errs); code != 0 || !strings.HasSuffix(out.String(), "\tblocked\n") || !strings.Contains(errs.String(), "refused") {
		t.Fatalf("classify with a broken override: %d %q %q", code, out.String(), errs.String())
	}
	good := write("gemini.toml", "agent = \"gemini\"\n[[rule]]\nstate = \"idle\"\nscreen = 'ready'\n")
	out.Reset()
	if code := run([]string{"rules", "check", good}, &out, &errs); code != 0 || !strings.Contains(out.String(), "ok: 1 rules for gemini, tried before the embedded rules") {
		t.Fatalf("check a good file: %d %q", code, out.String())
	}
}

func TestDoctorReportsRules(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MEW_HOME", home)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	var out, errs strings.Builder
	run([]string{"doctor"}, &out, &errs)
	// Every embedded rules file, by its agent (a new agent's file joins
	// this list by itself).
	if want := "screen rules for " + strings.Join(rules.Embedded().Agents(), ", ") + ": the embedded ones"; !strings.Contains(out.String(), want) || !strings.Contains(want, "agy, amp, claude, cline, codex, continue") {
		t.Errorf("doctor without overrides:\n%s", out.String())
	}
	os.MkdirAll(filepath.Join(home, "rules"), 0o700)
	os.WriteFile(filepath.Join(home, "rules", "codex.toml"), []byte("agent = \"codex\"\nstate = 1\n"), 0o600)
	out.Reset()
	run([]string{"doctor"}, &out, &errs)
	if !strings.Contains(out.String(), "screen rules refused (the embedded rules stay in force): "+filepath.Join(home, "rules", "codex.toml")+`:2: unknown key "state"`) {
		t.Errorf("doctor with a broken override:\n%s", out.String())
	}
}

// doctor says when the tmux server is another user's: status would list
// none of its panes without a word of why.
func TestDoctorSaysTheTmuxServerIsNotYours(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "default")
	l, err := net.Listen("unix", sock) // doctor asks tmux only where a server's socket is
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	script := "#!/bin/sh\necho 'error connecting to " + sock + " (Permission denied)' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("MEW_TMUX_SOCKET", sock)
	got := doctorTmux()
	if len(got) != 1 || got[0].Level != install.Warning || !strings.Contains(got[0].Text, sock+" is not one this user may use") {
		t.Errorf("findings %+v, want a warning naming the server", got)
	}
	t.Setenv("MEW_TMUX_SOCKET", filepath.Join(dir, "none"))
	if got := doctorTmux(); len(got) != 0 {
		t.Errorf("no server: %+v", got)
	}
}

// `mew rules check` says every mistake of a file, one a line.
func TestRulesCheckSaysEveryMistake(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "codex.toml")
	os.WriteFile(bad, []byte("agent = \"codex\"\nbogus = 1\n\n[[rule]]\nstate = \"idle\"\n"), 0o600)
	var out, errs strings.Builder
	if code := run([]string{"rules", "check", bad}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), "mew rules: refused: "+bad+":2: unknown key \"bogus\"\n") ||
		!strings.Contains(errs.String(), "mew rules: refused: "+bad+":4: rule 1: needs at least one of") {
		t.Errorf("exit %d:\n%s", code, errs.String())
	}
}
