package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
)

// launchEnv is what an app started from Finder or at login runs with, as
// far as Mew can tell: a home, launchd's PATH, the person's shell, and no
// LANG, no TMUX, no TMUX_TMPDIR. Here tmux and the agents' CLIs exist only
// in a Homebrew-like folder that only the login shell's PATH names, the
// tmux server's socket is under the TMUX_TMPDIR only the login shell sets,
// and the system's own tmux is hidden (a bind mount over it, in a mount namespace
// of the command's own).
type launchEnv struct {
	mew, home, brew, shell, tmuxTmp string
	pane                            string
	keyLog                          string
	hide                            []string // the unshare command line
}

func newLaunchEnv(t *testing.T) *launchEnv {
	t.Helper()
	realTmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	realTmux, _ = filepath.EvalSymlinks(realTmux)
	// A mount namespace to hide the system's tmux in: as root, or with an
	// unprivileged user namespace.
	var hide []string
	for _, try := range [][]string{{"unshare", "-m"}, {"unshare", "--map-current-user", "-m"}} {
		if exec.Command(try[0], append(try[1:], "true")...).Run() == nil {
			hide = try
			break
		}
	}
	if hide == nil {
		t.Skip("no mount namespace here (unshare -m) to hide the system's tmux in")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e := &launchEnv{mew: mew, home: filepath.Join(dir, "home"), brew: filepath.Join(dir, "homebrew", "bin"),
		shell: filepath.Join(dir, "zsh"), tmuxTmp: filepath.Join(dir, "t"), hide: hide}
	for _, d := range []string{e.home, e.brew, e.tmuxTmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A copy, not a symlink: the bind mount hides the original's path.
	copyFile(t, realTmux, filepath.Join(e.brew, "tmux"))
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(e.brew, "claude"), "#!/bin/sh\necho '2.1.99 (Claude Code)'\n")
	write(filepath.Join(e.brew, "codex"), "#!/bin/sh\necho 'codex-cli 0.169.0'\n")
	// The person's login shell: its profile prints a banner and puts
	// Homebrew first on PATH, as `brew shellenv` in ~/.zprofile does.
	// It also sets TMUX_TMPDIR, which launchd does not pass on.
	write(e.shell, "#!/bin/sh\n[ \"$1\" = -l ] || exit 64\nshift\necho 'Last login: today'\nPATH="+e.brew+":/usr/bin:/bin\nTMUX_TMPDIR="+e.tmuxTmp+"\nexport PATH TMUX_TMPDIR\nexec /bin/sh \"$@\"\n")

	// The person's tmux server on its default socket (TMUX_TMPDIR), with a
	// stand-in Claude Code showing a permission dialog in its only pane.
	agent := fakeagent.Write(t, dir)
	e.keyLog = filepath.Join(dir, "keys.log")
	start := exec.Command(realTmux, "-f", "/dev/null", "new-session", "-d", "-P", "-F", "#{pane_id}",
		"-x", "100", "-y", "20", "-e", "KEYLOG="+e.keyLog, "-e", "PAUSE=30", agent)
	start.Env = append(withoutTmux(os.Environ()), "TMUX_TMPDIR="+e.tmuxTmp)
	out, err := start.CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	e.pane = strings.TrimSpace(string(out))
	t.Cleanup(func() {
		kill := exec.Command(realTmux, "kill-server")
		kill.Env = append(withoutTmux(os.Environ()), "TMUX_TMPDIR="+e.tmuxTmp)
		kill.Run()
	})
	return e
}

func withoutTmux(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") && !strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			out = append(out, kv)
		}
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// command is mew with args in the launch environment, the system's tmux
// hidden.
func (e *launchEnv) command(args ...string) *exec.Cmd { return e.run(e.mew, args...) }

// run is prog with args in the launch environment.
func (e *launchEnv) run(prog string, args ...string) *exec.Cmd {
	script := `for t in /usr/bin/tmux /usr/local/bin/tmux; do [ -e "$t" ] && mount --bind /dev/null "$t"; done
exec env -i HOME="$H" PATH=/usr/bin:/bin:/usr/sbin:/sbin SHELL="$S" "$@"`
	argv := append(append([]string{}, e.hide...), "/bin/sh", "-c", script, "sh", prog)
	cmd := exec.Command(argv[0], append(argv[1:], args...)...)
	cmd.Env = []string{"H=" + e.home, "S=" + e.shell, "PATH=/usr/bin:/bin:/usr/sbin:/sbin"}
	return cmd
}

// TestLaunchEnv: in the environment of an app started from Finder, the
// tmux panes are still read, the doctor finds the agents, and both leave
// their trace in mew.log.
func TestLaunchEnv(t *testing.T) {
	e := newLaunchEnv(t)
	t.Run("status --watch reads the tmux panes", func(t *testing.T) { e.statusWatchReadsPanes(t) })
	t.Run("doctor finds the agents and shows the log", func(t *testing.T) { e.doctorFindsAgents(t) })
}

func (e *launchEnv) statusWatchReadsPanes(t *testing.T) {
	// The system's tmux is really out of reach in there.
	if out, err := e.run("/bin/sh", "-c", "command -v tmux || echo none").Output(); err != nil || strings.TrimSpace(string(out)) != "none" {
		t.Fatalf("tmux is still on launchd's PATH in the test's namespace: %q, %v", out, err)
	}

	cmd := e.command("status", "--watch", "--json")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	found := make(chan map[string]any, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var s map[string]any
			if json.Unmarshal(sc.Bytes(), &s) != nil {
				continue
			}
			src, _ := s["source"].(string)
			tmux, _ := s["tmux"].(string)
			if s["state"] == "waiting" && strings.HasPrefix(src, "screen:claude/") && strings.Contains(tmux, e.pane) {
				found <- s
				return
			}
		}
		close(found)
	}()
	select {
	case s, ok := <-found:
		if !ok {
			t.Fatalf("mew status --watch ended without reading the pane; stderr:\n%s", stderr.String())
		}
		t.Logf("read the pane: %v", s)
	case <-time.After(30 * time.Second): // a failure bound, not a wait for the result
		t.Fatalf("the tmux pane's dialog was not read within 30 s; stderr:\n%s", stderr.String())
	}
}

func (e *launchEnv) doctorFindsAgents(t *testing.T) {
	out, _ := e.command("doctor", "--local").CombinedOutput() // exits 1: no hook is installed here
	got := string(out)
	for _, want := range []string{
		// status --watch said which tmux it found, in the log.
		"status[", "tmux: " + filepath.Join(e.brew, "tmux"), "TMUX_TMPDIR=" + e.tmuxTmp + ", from the login shell",
		"Claude Code 2.1.99 (Claude Code) (" + filepath.Join(e.brew, "claude") + ")",
		"Codex codex-cli 0.169.0 (" + filepath.Join(e.brew, "codex") + ")",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("doctor does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "not on PATH") {
		t.Errorf("doctor missed an agent:\n%s", got)
	}
}
