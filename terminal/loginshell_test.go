package terminal

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fish users' PATH: their login shell is fish, where "$1" in a -c command
// is no argument (the old POSIX-only probe printed no marks, and Mew lost
// the PATH). With fish installed, its real login config sets the PATH.
func TestAskLoginShellFish(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish is not installed (apt-get install fish)")
	}
	home := t.TempDir()
	conf := filepath.Join(home, ".config", "fish")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "echo 'Welcome to fish'\nset -gx PATH /brew/bin /usr/bin\nset -gx TMUX_TMPDIR /sockets\n"
	if err := os.WriteFile(filepath.Join(conf, "config.fish"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	got, err := AskLoginShell(context.Background(), fish)
	if err != nil || !slices.Equal(got.Path, []string{"/brew/bin", "/usr/bin"}) || got.TmuxTmpdir != "/sockets" {
		t.Errorf("fish: %+v, %v", got, err)
	}
}

// nushell's words, as its parser reads a command line: '…' is a raw
// string, and a $ outside quotes is a variable (an error for $1: nushell
// has no positional parameters in -c). Enough of nushell for the probe's
// command; not installable here (not in Debian 12).
func nuWords(cmd string) ([]string, error) {
	var words []string
	for cmd = strings.TrimSpace(cmd); cmd != ""; cmd = strings.TrimSpace(cmd) {
		if cmd[0] == '\'' {
			end := strings.IndexByte(cmd[1:], '\'')
			if end < 0 {
				return nil, errors.New("unclosed quote")
			}
			words, cmd = append(words, cmd[1:end+1]), cmd[end+2:]
			continue
		}
		end := strings.IndexAny(cmd, " '")
		if end < 0 {
			end = len(cmd)
		}
		w := cmd[:end]
		if strings.ContainsAny(w, "$\"") {
			return nil, errors.New("nu: variable or string outside quotes: " + w)
		}
		words, cmd = append(words, w), cmd[end:]
	}
	return words, nil
}

func TestLoginEnvCommandReadsTheSameInNushell(t *testing.T) {
	mark := "MEWENVabc123"
	words, err := nuWords(LoginEnvCommand(mark))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Env = append(os.Environ(), "PATH=/nu/bin:/usr/bin", "TMUX_TMPDIR=/sockets")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	env, ok := ParseLoginEnv(string(out), mark)
	if !ok || !slices.Equal(env.Path, []string{"/nu/bin", "/usr/bin"}) || env.TmuxTmpdir != "/sockets" {
		t.Errorf("nushell: %q -> %+v", out, env)
	}
}
