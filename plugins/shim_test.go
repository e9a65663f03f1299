package plugins

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runShim runs the plugin's hook script as the agents do (sh <script>
// ARGS), with env and stdin.
func runShim(t *testing.T, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{filepath.Join("mew", "hooks", "mew-hook.sh")}, args...)...)
	cmd.Env, cmd.Stdin = env, strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// fakeHook writes a mew-hook that records its arguments, GOMAXPROCS and
// stdin in dir/seen, prints on both streams and exits with exit.
func fakeHook(t *testing.T, path, exit string) string {
	t.Helper()
	seen := path + ".seen"
	script := "#!/bin/sh\n{ echo \"args=$*\"; echo \"gomaxprocs=$GOMAXPROCS via=$MEW_HOOK_VIA\"; cat; } > '" + seen + "'\necho out; echo err >&2\nexit " + exit + "\n"
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return seen
}

// The shim runs the mew-hook `mew install` put in $MEW_HOME/bin (else
// ~/.mew/bin, else PATH), passing the arguments, stdin and GOMAXPROCS=1
// through; whatever happens it prints nothing and exits 0.
func TestShim(t *testing.T) {
	home := t.TempDir()
	empty := t.TempDir()
	base := []string{"HOME=" + home, "PATH=" + empty + ":/usr/bin:/bin"}

	if out, errOut, code := runShim(t, base, `{"hook_event_name":"Stop"}`); code != 0 || out != "" || errOut != "" {
		t.Errorf("no mew-hook anywhere: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	mewHome := filepath.Join(t.TempDir(), "mew home")
	seen := fakeHook(t, filepath.Join(mewHome, "bin", "mew-hook"), "3")
	other := fakeHook(t, filepath.Join(home, ".mew", "bin", "mew-hook"), "0")
	onPath := fakeHook(t, filepath.Join(empty, "mew-hook"), "0")
	payload := `{"session_id":"s","hook_event_name":"PermissionRequest"}`
	out, errOut, code := runShim(t, append(base, "MEW_HOME="+mewHome), payload, "--agent=codex")
	if code != 0 || out != "" || errOut != "" {
		t.Errorf("a mew-hook that prints and fails: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	got, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("$MEW_HOME/bin/mew-hook did not run: %v", err)
	}
	if want := "args=--agent=codex\ngomaxprocs=1 via=plugin\n" + payload; string(got) != want {
		t.Errorf("mew-hook saw %q, want %q", got, want)
	}
	if _, err := os.Stat(other); err == nil {
		t.Errorf("~/.mew/bin/mew-hook ran although $MEW_HOME names another")
	}

	os.Remove(seen)
	runShim(t, base, payload)
	if _, err := os.Stat(other); err != nil {
		t.Errorf("without MEW_HOME, ~/.mew/bin/mew-hook did not run")
	}
	if _, err := os.Stat(onPath); err == nil {
		t.Errorf("the mew-hook on PATH ran although ~/.mew/bin has one")
	}
	os.RemoveAll(filepath.Join(home, ".mew"))
	runShim(t, base, payload)
	if _, err := os.Stat(onPath); err != nil {
		t.Errorf("with no installed mew-hook, the one on PATH did not run")
	}
}
