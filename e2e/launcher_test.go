package e2e

// Launcher shapes (issue 35): Qwen Code started through the link an npm
// global install makes (<prefix>/bin/qwen → …/@qwen-code/qwen-code/cli.js,
// run as `node <prefix>/bin/qwen`) was not recognised by its process, so
// its pane was not read, and its hooks alone left an Esc on its dialog
// waiting for 5–8 s. With the pane read, the Esc is seen at once; with it
// unread (hooks only), Qwen's idle_prompt right after the Esc ends the wait.

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// startQwenLinked starts Qwen Code by an npm-global-style link to its
// script; unread hides the run's tmux server from Mew.
func startQwenLinked(t *testing.T, unread bool) *agentScen {
	s := startCLIWith(t, qwenCLI, func(o *driver.Options) {
		script, err := filepath.EvalSymlinks(o.Program)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), "npm-global", "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		o.Program = filepath.Join(bin, "qwen")
		if err := os.Symlink(script, o.Program); err != nil {
			t.Fatal(err)
		}
		if unread {
			hooksOnly(o)
		}
	})
	t.Cleanup(func() {
		if pids := s.r.KillLeftovers(); len(pids) > 0 {
			t.Logf("ended the processes Qwen Code left running: %v", pids)
		}
	})
	return s
}

func qwenLinkedEsc(t *testing.T, hooksOnly bool) {
	s := startQwenLinked(t, hooksOnly)
	shown := s.dialogShown(fakellm.Shell)
	a, err := s.r.Answer(s.cli.dialog, shown.At, "Escape")
	if err != nil {
		t.Fatal(err)
	}
	if hooksOnly {
		// Qwen's own report that its input box is back.
		idle := s.observed(a.Pressed, "idle_prompt after the Esc", qwenIdle)
		t.Logf("idle_prompt %v after the Esc", idle.Sub(a.Pressed).Round(time.Millisecond))
		s.expect("denied with Esc → not waiting (hooks only)", idle, fast, listedAndNot(session.Waiting))
		return
	}
	s.expect("denied with Esc → not waiting", a.Gone, time.Second, listedAndNot(session.Waiting))
	if s.r.PaneReads() == 0 {
		t.Errorf("Mew never read the pane of Qwen Code started by its npm global link %s", s.r.Opts.Program)
	}
}

func TestQwenLinkedBinEsc(t *testing.T)          { qwenLinkedEsc(t, false) }
func TestQwenLinkedBinEscHooksOnly(t *testing.T) { qwenLinkedEsc(t, true) }

// hooksOnly hides the run's tmux server from Mew: only the agent's hooks
// (or plugin) and its process report.
func hooksOnly(o *driver.Options) {
	o.Setup = func(r *driver.Run) error {
		r.MewEnv = append(append([]string(nil), r.Env...), "MEW_TMUX_SOCKET="+filepath.Join(r.Home, "no-tmux.sock"))
		return nil
	}
}

// Gemini CLI with its hooks and its pane unread: an API error ends the turn
// with an ordinary AfterAgent ("[no response text]"), never done (issue 35:
// done); what Mew can say without the screen is idle.
func TestGeminiErrorHooksOnly(t *testing.T) {
	s := startCLIWith(t, geminiCLI, hooksOnly)
	sent := s.prompt(fakellm.Prompt(fakellm.Error))
	started := s.observed(sent, "the error turn's start", s.cli.turnStart)
	ended := s.observed(sent, "the error turn's AfterAgent", s.cli.turnEnd)
	s.expect("API error, hooks only → idle", ended, fast, stateIs(session.Idle))
	s.never("never done", started, ended.Add(settleAfter), shows(session.Done))
}
