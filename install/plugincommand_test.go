package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The plugin's hook command, run by sh -c as the agents run it, execs the
// mew-hook in $MEW_HOME/bin itself: no second shell between the agent's
// and the hook (the hook's parent is whoever ran sh -c), with the
// arguments, stdin, GOMAXPROCS=1 and MEW_HOOK_VIA=plugin the shim passes,
// and nothing on either stream. Without one there, the shim looks further
// (PATH), and without any it stays silent and exits 0.
func TestPluginHookCommandExecsTheHook(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "plugins", "mew"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Agent{Claude, Codex} {
		home, mewHome, path := t.TempDir(), filepath.Join(t.TempDir(), "mew home"), t.TempDir()
		env := []string{"HOME=" + home, "PATH=" + path + ":/usr/bin:/bin", "CLAUDE_PLUGIN_ROOT=" + root, "PLUGIN_ROOT=" + root}
		run := func(env []string) (string, int) {
			cmd := exec.Command("/bin/sh", "-c", PluginHookCommand(a))
			cmd.Env, cmd.Stdin = env, strings.NewReader(`{"hook_event_name":"Stop"}`)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return out.String(), code
		}
		if out, code := run(append(env, "MEW_HOME="+mewHome)); out != "" || code != 0 {
			t.Errorf("%s, no mew-hook anywhere: exit %d, output %q", a.Name, code, out)
		}
		fake := func(p string) string {
			seen := p + ".seen"
			script := "#!/bin/sh\n{ echo \"args=$* ppid=$PPID gomaxprocs=$GOMAXPROCS via=$MEW_HOOK_VIA\"; cat; } > '" + seen + "'\necho out; echo err >&2\n"
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			return seen
		}
		onPath := fake(filepath.Join(path, "mew-hook"))
		if out, code := run(append(env, "MEW_HOME="+mewHome)); out != "" || code != 0 {
			t.Errorf("%s, mew-hook on PATH: exit %d, output %q", a.Name, code, out)
		}
		if _, err := os.Stat(onPath); err != nil {
			t.Errorf("%s: with none in $MEW_HOME/bin, the shim did not run the mew-hook on PATH", a.Name)
		}
		seen := fake(filepath.Join(mewHome, "bin", "mew-hook"))
		os.Remove(onPath)
		if out, code := run(append(env, "MEW_HOME="+mewHome)); out != "" || code != 0 {
			t.Errorf("%s: exit %d, output %q", a.Name, code, out)
		}
		got, err := os.ReadFile(seen)
		if err != nil {
			t.Fatalf("%s: $MEW_HOME/bin/mew-hook did not run: %v", a.Name, err)
		}
		args := ""
		if a.Name != "claude" {
			args = "--agent=" + a.Name
		}
		want := "args=" + args + " ppid=" + strconv.Itoa(os.Getpid()) + " gomaxprocs=1 via=plugin\n" + `{"hook_event_name":"Stop"}`
		if string(got) != want {
			t.Errorf("%s: mew-hook saw %q, want %q (a ppid other than the test's: a shell between)", a.Name, got, want)
		}
		if _, err := os.Stat(onPath); err == nil {
			t.Errorf("%s: the mew-hook on PATH ran although $MEW_HOME/bin has one", a.Name)
		}
		// Without MEW_HOME: ~/.mew/bin.
		seen = fake(filepath.Join(home, ".mew", "bin", "mew-hook"))
		if out, code := run(env); out != "" || code != 0 {
			t.Errorf("%s, ~/.mew/bin: exit %d, output %q", a.Name, code, out)
		}
		if _, err := os.Stat(seen); err != nil {
			t.Errorf("%s: without MEW_HOME, ~/.mew/bin/mew-hook did not run", a.Name)
		}
	}
}
