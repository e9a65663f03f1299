package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mew-dev/mew/internal/testbin"
)

// consentHome is a home with Claude Code's settings and the built mew.
func consentHome(t *testing.T) (c cli, home, settings string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook"); err != nil {
		t.Fatal(err)
	}
	home = t.TempDir()
	claudeDir := filepath.Join(home, ".claude")
	settings = filepath.Join(claudeDir, "settings.json")
	os.MkdirAll(claudeDir, 0o700)
	os.WriteFile(settings, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o600)
	env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + claudeDir, "MEW_HOME=" + filepath.Join(home, ".mew"),
		"CODEX_HOME=" + filepath.Join(home, "no-codex"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"PATH=/usr/bin:/bin", "TERM=dumb"}
	return cli{t: t, mew: mew, env: env, cwd: home}, home, settings
}

// tree is every file under dir with a digest of its bytes.
func tree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			data, _ := os.ReadFile(p)
			out[p] = sha256.Sum256(data)
		} else {
			out[p+"/"] = [32]byte{}
		}
		return nil
	})
	return out
}

func sameTree(t *testing.T, what string, before, after map[string][32]byte) {
	t.Helper()
	for p, d := range after {
		if b, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		} else if b != d {
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s: %s went away", what, p)
		}
	}
}

// ptyRun is mew on a terminal of its own, its output collected.
type ptyRun struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	more chan struct{}
	done chan error
}

func startPTY(t *testing.T, c cli, args ...string) *ptyRun {
	t.Helper()
	cmd := exec.Command(c.mew, args...)
	cmd.Env, cmd.Dir = c.env, c.cwd
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{cmd: cmd, tty: f, more: make(chan struct{}, 1), done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			select {
			case r.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { r.done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); f.Close() })
	return r
}

func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.ReplaceAll(r.out.String(), "\r\n", "\n")
}

// waitFor waits for s in the output (the timeout only bounds a hang).
func (r *ptyRun) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(r.output(), s) {
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("no %q in the output:\n%s", s, r.output())
		}
	}
}

// exit waits for the process and returns its exit code, the output read
// to its end.
func (r *ptyRun) exit(t *testing.T) int {
	t.Helper()
	select {
	case err := <-r.done:
		io.Copy(io.Discard, r.tty) // what is left until the terminal closes
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		t.Fatalf("mew did not exit; output:\n%s", r.output())
		return -1
	}
}

// On a terminal, `mew install` lists what it will change and asks; a no
// changes nothing at all (not even $MEW_HOME appears), a yes makes exactly
// the listed changes and keeps the list for `mew doctor`.
func TestInstallAsksOnTerminal(t *testing.T) {
	c, home, settings := consentHome(t)
	before := tree(t, home)

	r := startPTY(t, c, "install")
	r.waitFor(t, "[y/N]")
	out := r.output()
	for _, want := range []string{"`mew install` will make these changes:", "Claude Code:", settings, "events: SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest", "copy the hook program mew-hook to: " + filepath.Join(home, ".mew", "bin", "mew-hook")} {
		if !strings.Contains(out, want) {
			t.Errorf("the list before the question lacks %q:\n%s", want, out)
		}
	}
	sameTree(t, "while asking", before, tree(t, home))
	r.tty.Write([]byte("n\r"))
	if code := r.exit(t); code != 1 {
		t.Errorf("refused install exited %d, want 1:\n%s", code, r.output())
	}
	if !strings.Contains(r.output(), "Nothing was changed.") {
		t.Errorf("a refusal does not say nothing changed:\n%s", r.output())
	}
	sameTree(t, "after the refusal", before, tree(t, home))

	r = startPTY(t, c, "install")
	r.waitFor(t, "[y/N]")
	r.tty.Write([]byte("y\r"))
	// Then the statusline source is offered on its own (off unless the
	// person says yes): a no leaves Claude Code's statusLine alone.
	r.waitFor(t, "runs your own statusline command unchanged. [y/N]")
	r.tty.Write([]byte("n\r"))
	if code := r.exit(t); code != 0 {
		t.Fatalf("accepted install exited %d:\n%s", code, r.output())
	}
	if data, _ := os.ReadFile(settings); !bytes.Contains(data, []byte("mew-hook")) || bytes.Contains(data, []byte("statusLine")) {
		t.Errorf("settings.json after yes to the hooks, no to the statusline:\n%s", data)
	}
	doctor, _, _ := c.run("doctor", "--local")
	if !strings.Contains(doctor, "for Claude Code: add Mew's hook to its \"hooks\" value") || !strings.Contains(doctor, settings) {
		t.Errorf("mew doctor does not show what was installed where:\n%s", doctor)
	}
}

// Without a terminal and without --yes, `mew install` refuses, says how
// to go on, and changes nothing; --dry-run writes nothing either.
func TestInstallRefusesWithoutTerminal(t *testing.T) {
	c, home, settings := consentHome(t)
	before := tree(t, home)
	out, errOut, code := c.run("install")
	if code != 1 || !strings.Contains(errOut, "nothing was changed: there is no terminal to ask on") || !strings.Contains(errOut, "--yes") {
		t.Errorf("install without a terminal: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, settings) {
		t.Errorf("the refusal does not show the list:\n%s", out)
	}
	sameTree(t, "refused without a terminal", before, tree(t, home))
	if _, _, code := c.run("install", "--dry-run"); code != 0 {
		t.Errorf("--dry-run exited %d", code)
	}
	sameTree(t, "--dry-run", before, tree(t, home))
}

// `mew install --plugin` writes Mew's Claude Code plugin and no settings
// file: settings.json stays byte for byte; entries of an earlier settings
// install are taken out (listed first), so no event comes twice; uninstall
// removes the folder.
func TestInstallPluginLeavesSettings(t *testing.T) {
	c, home, settings := consentHome(t)
	orig, _ := os.ReadFile(settings)
	out, errOut, code := c.run("install", "--plugin", "--yes")
	if code != 0 {
		t.Fatalf("install --plugin: %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(settings); !bytes.Equal(now, orig) {
		t.Errorf("install --plugin changed settings.json:\n%s", now)
	}
	copyDir := filepath.Join(home, ".claude", "skills", PluginName)
	for _, name := range claudeCopyFiles() {
		want, _ := embeddedPluginFile(name)
		if got, err := os.ReadFile(filepath.Join(copyDir, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("the plugin copy's %s is not the shipped one (%v)", name, err)
		}
	}
	var manifest struct{ Name string }
	data, _ := os.ReadFile(filepath.Join(copyDir, ".claude-plugin", "plugin.json"))
	if json.Unmarshal(data, &manifest); manifest.Name != PluginName {
		t.Errorf("plugin name %q", manifest.Name)
	}
	doctor, _, _ := c.run("doctor", "--local")
	if !strings.Contains(doctor, "Mew's plugin is at "+copyDir) || strings.Contains(doctor, "not registered in") {
		t.Errorf("doctor with the plugin:\n%s", doctor)
	}
	if out, _, _ := c.run("install", "--yes"); !strings.Contains(out, "already at "+copyDir) {
		t.Errorf("a plain install after --plugin does not keep to the plugin:\n%s", out)
	}
	if now, _ := os.ReadFile(settings); !bytes.Equal(now, orig) {
		t.Errorf("a plain install with the plugin there changed settings.json:\n%s", now)
	}

	// An earlier settings install: --plugin lists and takes its entries out.
	c.run("uninstall")
	if _, err := os.Stat(copyDir); err == nil {
		t.Fatalf("uninstall left %s", copyDir)
	}
	c.run("install", "--yes")
	out, _, code = c.run("install", "--plugin", "--yes")
	if code != 0 || !strings.Contains(out, "take Mew's hook entries out of its \"hooks\" value") {
		t.Errorf("install --plugin over a settings install (exit %d):\n%s", code, out)
	}
	if now, _ := os.ReadFile(settings); bytes.Contains(now, []byte("mew-hook")) {
		t.Errorf("settings.json still runs Mew's hook next to the plugin:\n%s", now)
	}
}

// With Mew's Codex plugin enabled (`codex plugin add mew@mew`), `mew
// install` writes no hooks.json entry and takes out one it wrote before:
// Codex would run both. --plugin for Codex keeps hooks.json and says why.
func TestInstallCodexPluginNoDoubleHooks(t *testing.T) {
	c, home, _ := consentHome(t)
	codexHome := filepath.Join(home, "no-codex")
	os.MkdirAll(codexHome, 0o700)
	hooks := filepath.Join(codexHome, "hooks.json")
	if out, errOut, code := c.run("install", "--agent", "codex", "--plugin", "--yes"); code != 0 || !strings.Contains(out, "Codex keeps Mew's hooks in hooks.json") {
		t.Fatalf("install --plugin --agent codex (exit %d):\n%s%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(hooks); !bytes.Contains(data, []byte("mew-hook")) {
		t.Fatalf("no hooks.json entries:\n%s", data)
	}
	config := "[plugins.\"mew@mew\"]\nenabled = true\n"
	os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600)
	out, _, code := c.run("install", "--agent", "codex", "--yes")
	if code != 0 || !strings.Contains(out, "take Mew's hook entries out") || !strings.Contains(out, "is enabled in Codex") {
		t.Errorf("install with the Codex plugin enabled (exit %d):\n%s", code, out)
	}
	if data, err := os.ReadFile(hooks); err == nil && bytes.Contains(data, []byte("mew-hook")) {
		t.Errorf("hooks.json still runs Mew's hook next to the plugin:\n%s", data)
	}
	if now, _ := os.ReadFile(filepath.Join(codexHome, "config.toml")); string(now) != config {
		t.Errorf("config.toml changed:\n%s", now)
	}
	doctor, _, _ := c.run("doctor", "--local", "--agent", "codex")
	if !strings.Contains(doctor, "Mew's plugin mew@mew is enabled in Codex") || strings.Contains(doctor, "not registered") {
		t.Errorf("doctor with the Codex plugin:\n%s", doctor)
	}
}

// `mew install --plan` (what the panel asks with) prints the list and
// writes nothing; once installed it says there is nothing to change.
func TestInstallPlanWritesNothing(t *testing.T) {
	c, home, settings := consentHome(t)
	before := tree(t, home)
	out, _, code := c.run("install", "--plan")
	if code != 0 || !strings.HasPrefix(out, "`mew install` will make these changes:\n") || !strings.Contains(out, settings) {
		t.Errorf("--plan (exit %d):\n%s", code, out)
	}
	sameTree(t, "--plan", before, tree(t, home))
	c.run("install", "--yes")
	if out, _, _ := c.run("install", "--plan"); !strings.HasPrefix(out, "Nothing to change") {
		t.Errorf("--plan once installed:\n%s", out)
	}
}

// The plan's event lists wrap between names, within 80 columns: a
// terminal's own wrap cut "SessionEnd" in two (issue 40).
func TestPlanWrapsBetweenNames(t *testing.T) {
	p := Planned{What: "register Mew's hook in", Path: "/home/p/.claude/settings.json", Events: Claude.Events}
	s := p.String()
	for _, l := range strings.Split(s, "\n")[1:] {
		if len(l) > 80 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	for _, e := range Claude.Events {
		if !strings.Contains(flat, " "+e+" ") && !strings.HasSuffix(flat, " "+e) {
			t.Errorf("event %q not whole in:\n%s", e, s)
		}
	}
	if len(Claude.Events) < 8 || !strings.Contains(s, "\n            ") {
		t.Errorf("no wrapped line in:\n%s", s)
	}
}
