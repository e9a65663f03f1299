package install

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestHookCommand(t *testing.T) {
	cases := []struct{ mewHome, home, want string }{
		{"/Users/me/.mew", "/Users/me", `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"`},
		{"/Users/me/.mew/", "/Users/me/", `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"`},
		{"/Users/me/.config/mew", "/Users/me", `GOMAXPROCS=1 MEW_HOME="$HOME/.config/mew" "$HOME/.config/mew/bin/mew-hook"`},
		{"/Users/me/My Stuff/mew", "/Users/me", `GOMAXPROCS=1 MEW_HOME="$HOME/My Stuff/mew" "$HOME/My Stuff/mew/bin/mew-hook"`},
		{"/Users/me", "/Users/me", `GOMAXPROCS=1 MEW_HOME="$HOME" "$HOME/bin/mew-hook"`},
		{"/Users/me2/.mew", "/Users/me", `GOMAXPROCS=1 MEW_HOME="/Users/me2/.mew" "/Users/me2/.mew/bin/mew-hook"`},
		{"/opt/mew & co", "/Users/me", `GOMAXPROCS=1 MEW_HOME="/opt/mew & co" "/opt/mew & co/bin/mew-hook"`},
		{"/opt/mew", "", `GOMAXPROCS=1 MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook"`},
		// Only what is written literally must be quotable: an odd home
		// directory stays behind $HOME.
		{"/home/a$b/.mew", "/home/a$b", `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"`},
	}
	for _, c := range cases {
		got, err := HookCommand(c.mewHome, c.home)
		if err != nil || got != c.want {
			t.Errorf("HookCommand(%q, %q) = %s, %v; want %s", c.mewHome, c.home, got, err, c.want)
		}
		if !IsMewCommand(got) {
			t.Errorf("IsMewCommand does not recognise %s", got)
		}
	}
	for _, bad := range []string{"/opt/m\"ew", "/opt/m$ew", "/opt/m`ew`", `/opt/m\ew`, "/opt/m\new", "/opt/m\x01", "/opt/m\xffew", "/Users/me/x$y"} {
		if _, err := HookCommand(bad, "/Users/me"); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("HookCommand(%q) err = %v, want ErrUnsafePath", bad, err)
		}
	}
	if _, err := HookCommand("relative/mew", "/Users/me"); err == nil {
		t.Error("relative MEW_HOME accepted")
	}
}

// TestHookCommandRunsInShell runs the command strings through sh, as
// Claude Code does: $HOME expands, spaces survive, MEW_HOME reaches the hook.
func TestHookCommandRunsInShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	home := t.TempDir()
	for _, mewHome := range []string{
		filepath.Join(home, ".mew"),
		filepath.Join(home, "dir with spaces", "mew & co"),
		filepath.Join(t.TempDir(), "elsewhere (mew)"),
	} {
		hook := HookPath(mewHome)
		os.MkdirAll(filepath.Dir(hook), 0o755)
		os.WriteFile(hook, []byte("#!/bin/sh\nprintf 'ran:%s:%s' \"$MEW_HOME\" \"$GOMAXPROCS\"\n"), 0o755)
		cmdline, err := HookCommand(mewHome, home)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(cmdline, home) {
			t.Errorf("command %s contains the home path", cmdline)
		}
		cmd := exec.Command(sh, "-c", cmdline)
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		want := "ran:" + mewHome + ":1"
		if mewHome == filepath.Join(home, ".mew") {
			want = "ran::1" // the default needs no MEW_HOME
		}
		if err != nil || string(out) != want {
			t.Errorf("sh -c %s: %q %v; want %q", cmdline, out, err, want)
		}
	}
}

func TestIsMewCommand(t *testing.T) {
	// Exactly the commands a Mew ever wrote (HookCommand, and before it
	// the same without GOMAXPROCS=1).
	yes := []string{
		`"$HOME/.mew/bin/mew-hook"`,
		`GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"`,
		`GOMAXPROCS=1 MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook"`,
		`MEW_HOME="$HOME/.config/mew" "$HOME/.config/mew/bin/mew-hook"`,
		`GOMAXPROCS=1 MEW_HOME="$HOME" "$HOME/bin/mew-hook"`,
		`GOMAXPROCS=1 MEW_HOME="/Users/me/Library/Application Support/Mew" "/Users/me/Library/Application Support/Mew/bin/mew-hook"`,
		`GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook" --agent=codex`,
		`GOMAXPROCS=1 MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook" --agent=gemini`,
	}
	// The person's own hooks, however much they look like Mew's.
	no := []string{
		`/home/me/homework/bin/mew-hook`,
		`"/home/me/homework/bin/mew-hook"`,
		`"$HOME/.mew/bin/mew-hook"  `,
		`$HOME/.mew/bin/mew-hook`,
		`~/.mew/bin/mew-hook`,
		`/Users/me/.mew/bin/mew-hook`,
		`"/Users/me/Library/Application Support/Mew/bin/mew-hook"`,
		`"/Users/me/.mew/bin/mew-hook"`,
		`MEW_HOME="/opt/mew" "/opt/other/bin/mew-hook"`,
		`MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook" --verbose`,
		`GOMAXPROCS=2 "$HOME/.mew/bin/mew-hook"`,
		`MEW_HOME="/opt/m"ew" "/opt/m"ew/bin/mew-hook"`,
		`MEW_HOME="relative" "relative/bin/mew-hook"`,
		``,
		`mew-hook`,
		`mew-hook --verbose`,
		`/usr/local/bin/mew-hook`,
		`"$HOME/bin/mew-hook"`,
		`~/.mew/bin/my-mew-hook`,
		`/x/mew/bin/mew-hook.sh`,
		`/x/mew/bin/mew-hooks`,
		`"$HOME/.mew/bin/mew-hook" && say done`,
		`echo mew | /bin/cat`,
		`say done`,
		`"$HOME/.mew/bin/mew-hook" --agent=vim`,
		`"$HOME/.mew/bin/mew-hook" --agent=codex --agent=codex`,
		`"$HOME/.mew/bin/mew-hook" --agent=`,
		`"$HOME/.mew/bin/mew-hook"--agent=codex`,
		`say done --agent=codex`,
	}
	for _, c := range yes {
		if !IsMewCommand(c) {
			t.Errorf("IsMewCommand(%s) = false", c)
		}
	}
	for _, c := range no {
		if IsMewCommand(c) {
			t.Errorf("IsMewCommand(%s) = true", c)
		}
	}
}

// A person's hook that only looks like Mew's survives install and
// uninstall.
func TestLookalikeHookSurvives(t *testing.T) {
	env := testEnv(t)
	doc := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/home/me/homework/bin/mew-hook"}]}]}}`
	writeSettings(t, env, doc, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, env.SettingsPath())); !strings.Contains(got, "/home/me/homework/bin/mew-hook") {
		t.Fatalf("install removed the person's hook:\n%s", got)
	}
	os.RemoveAll(env.MewHome) // no record: uninstall goes by the commands alone
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, env.SettingsPath())); got != doc {
		t.Fatalf("after uninstall:\n%s\nwant\n%s", got, doc)
	}
}
