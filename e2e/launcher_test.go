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
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

// startQwenLinked starts Qwen Code by an npm-global-style link to its
// script; hooksOnly hides the run's tmux server from Mew.
func startQwenLinked(t *testing.T, hooksOnly bool) *agentScen {
	t.Parallel()
	c := qwenCLI
	setup := needCLI(t, c)
	script, err := filepath.EvalSymlinks(setup.program)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "npm-global", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "qwen")
	if err := os.Symlink(script, link); err != nil {
		t.Fatal(err)
	}
	api, err := fakellm.Start(fakellm.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	o := driver.Options{Agent: c.name, Program: link, APIURL: c.apiURL(api), Dir: t.TempDir(), Mew: setup.mew, Install: true}
	if hooksOnly {
		o.Setup = func(r *driver.Run) error {
			r.MewEnv = append(append([]string(nil), r.Env...), "MEW_TMUX_SOCKET="+filepath.Join(r.Home, "no-tmux.sock"))
			return nil
		}
	}
	r, err := driver.Launch(o)
	if err != nil {
		api.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		api.Close()
		dumpScreens(t, r)
		if pids := r.KillLeftovers(); len(pids) > 0 {
			t.Logf("ended the processes Qwen Code left running: %v", pids)
		}
		if err := r.CheckRows(); err != nil {
			t.Error(err)
		}
		if t.Failed() || os.Getenv("MEW_E2E_TIMELINE") != "" {
			t.Logf("timeline:\n%s", r.TL.String())
		}
	})
	if err := r.WaitReady(2 * ready); err != nil {
		t.Fatal(err)
	}
	return &agentScen{scen: &scen{t: t, r: r}, cli: c, api: api}
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
	read := s.r.MewDuring(s.r.Started, time.Now(), func(sh session.Shown, listed bool) bool {
		return listed && strings.HasPrefix(sh.Source, "screen:qwen")
	})
	if len(read) == 0 {
		t.Errorf("Mew never read the pane of Qwen Code started by its npm global link %s", s.r.Opts.Program)
	}
}

func TestQwenLinkedBinEsc(t *testing.T)          { qwenLinkedEsc(t, false) }
func TestQwenLinkedBinEscHooksOnly(t *testing.T) { qwenLinkedEsc(t, true) }
