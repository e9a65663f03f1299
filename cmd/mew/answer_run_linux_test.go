package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
)

// `mew answer` into an agent under `mew run`, through the wrapper's
// answer socket (no tmux).
func TestAnswerCommandMewRun(t *testing.T) {
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := fakeagent.Write(t, dir)
	keylog := filepath.Join(dir, "keys.log")
	home := filepath.Join(dir, "mew")
	env := append(os.Environ(), "MEW_HOME="+home, "HOME="+dir, "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "claude"),
		"PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "MEW_TMUX_SOCKET="+filepath.Join(dir, "no-tmux"), "TERM=xterm-256color",
		"KEYLOG="+keylog, "PAUSE=60")
	person := newTerminal(t)
	run := person.start(t, env, mew, "run", "--", "claude")
	defer run.Process.Kill()
	person.waitFor(t, "Esc to cancel")
	mewCmd := func(args ...string) (string, string, int) {
		c := exec.Command(mew, args...)
		c.Env = env
		var o, e strings.Builder
		c.Stdout, c.Stderr = &o, &e
		err := c.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return o.String(), e.String(), ee.ExitCode()
		}
		return o.String(), e.String(), 0
	}
	// The wrapper writes its session a sweep after the dialog is drawn.
	var id string
	for deadline := time.Now().Add(60 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		out, _, _ := mewCmd("status", "--json")
		var shown []session.Shown
		json.Unmarshal([]byte(out), &shown)
		if len(shown) == 1 && shown[0].State == session.Waiting && len(shown[0].Choices) == 3 && shown[0].AnswerVia == "run" {
			id = shown[0].ID
		}
	}
	if id == "" {
		out, errs, _ := mewCmd("status", "--json")
		t.Fatalf("mew status never listed the run session waiting with its choices: %s %s\nscreen: %q", out, errs, person.text())
	}
	out, errs, code := mewCmd("answer", id, "2")
	data, _ := os.ReadFile(keylog)
	if code != 0 || strings.TrimSpace(string(data)) != "2" || !strings.Contains(out, `answered 2 "Yes, and always allow access to /p"`) {
		t.Fatalf("answer: %d %q %q; the agent read %q", code, out, errs, data)
	}
	_, errs, code = mewCmd("answer", id, "1")
	if data, _ := os.ReadFile(keylog); code != 1 || strings.TrimSpace(string(data)) != "2" {
		t.Fatalf("a second answer: %d %q; the agent read %q", code, errs, data)
	}
}
