package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/internal/sshtest"
	"github.com/mew-dev/mew/session"
)

// remoteName is the remote the sampling Mew follows.
const remoteName = "e2e-remote"

// remoteSetup, for a remote scenario, makes the run's home a "remote": an
// sshd on 127.0.0.1 whose sessions get the run's HOME, MEW_HOME and
// CLAUDE_CONFIG_DIR, and a second, empty Mew home on this side with that
// sshd as its remote. `mew status --json` is then sampled from this side,
// so every check goes through ssh and the feed.
func remoteSetup(t *testing.T, remote bool, mew string) func(r *driver.Run) error {
	if !remote {
		return nil
	}
	if _, _, err := sshtest.Find(); err != nil {
		t.Skipf("the remote scenario needs sshd: %v (.ci/run installs openssh-server)", err)
	}
	return func(r *driver.Run) error {
		dir := filepath.Join(filepath.Dir(r.Home), "ssh")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		srv, err := sshtest.Start(dir, []string{
			"HOME=" + r.Home, "MEW_HOME=" + r.MewHome, "CLAUDE_CONFIG_DIR=" + r.ConfigDir,
			"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8",
			// As on this side (driver.Run's environment): the scenarios run
			// side by side as one user, and the process scan would list
			// the other scenarios' CLIs as this "remote" machine's.
			"MEW_PROCSCAN=off",
			// The mew there reads (and answers into) the tmux server the
			// CLI runs in, as a person's remote mew reads their server.
			"MEW_TMUX_SOCKET=" + r.TmuxSocket(),
		})
		if err != nil {
			return err
		}
		t.Cleanup(srv.Stop)
		here := filepath.Join(filepath.Dir(r.Home), "here")
		for _, d := range []string{filepath.Join(here, ".mew"), filepath.Join(here, ".claude")} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return err
			}
		}
		var env []string
		for _, kv := range r.Env {
			switch k, _, _ := strings.Cut(kv, "="); k {
			case "HOME", "MEW_HOME", "CLAUDE_CONFIG_DIR":
			default:
				env = append(env, kv)
			}
		}
		env = append(env, "HOME="+here, "MEW_HOME="+filepath.Join(here, ".mew"), "CLAUDE_CONFIG_DIR="+filepath.Join(here, ".claude"))
		args := []string{"remote", "add", remoteName, srv.Host(), "--mew", mew, "--no-check"}
		for _, o := range srv.SSHOptions() {
			args = append(args, "--ssh-option", o)
		}
		c := exec.Command(mew, args...)
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("mew remote add: %v\n%s", err, out)
		}
		r.MewEnv = env
		return nil
	}
}

// onRemote narrows a state predicate to the session as listed from the
// other machine: with its host, and not offline.
func onRemote(want func(session.Shown, bool) bool) func(session.Shown, bool) bool {
	return func(sh session.Shown, listed bool) bool {
		return listed && sh.Host == remoteName && !sh.Offline && want(sh, listed)
	}
}

// The permission prompt scenario with Claude Code on a remote: this
// machine's Mew sees waiting(permission) (kept through the CLI's
// notification), then not waiting, then done, within the same goals, over
// ssh.
func TestRemotePermissionPrompt(t *testing.T) {
	s := start(t, opts{remote: true})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.cliChange(sent, permissionPrompt, "waiting")
	s.expect("prompt shown → waiting(permission) on the remote", shown.ref, fast, onRemote(waitingFor(session.ReasonPermission)))
	s.holdsThroughNotification(shown, session.ReasonPermission)
	answered := s.answer(permissionPrompt, shown.screen, "Enter")
	s.expect("prompt answered → not waiting on the remote", answered, fast, onRemote(listedAndNot(session.Waiting)))
	s.expect("turn ended → done on the remote", s.turnEnd(answered), fast, onRemote(stateIs(session.Done)))
}

// `mew answer` on this machine for a prompt on the remote: the mew there
// types it into the pane after reading the prompt, over ssh; the Bash
// command runs and the turn ends.
func TestRemoteAnswerPermission(t *testing.T) {
	s := start(t, opts{remote: true})
	sent := s.submit(fakeapi.Prompt(fakeapi.Bash))
	shown := s.dialogUp(sent, permissionPrompt)
	s.expect("prompt shown → waiting(permission) on the remote", shown.ref, fast, onRemote(waitingFor(session.ReasonPermission)))
	s.expect("the prompt's choices listed on this machine", shown.screen, fast, onRemote(func(sh session.Shown, _ bool) bool {
		return sh.State == session.Waiting && len(sh.Choices) > 0 && sh.AnswerVia != ""
	}))
	id := s.r.SessionID()
	out, errOut, code := s.mewList(id)
	if code != 0 || !strings.Contains(out, "1  Yes\n") || !strings.Contains(out, "over ssh, by the mew on "+remoteName) {
		t.Fatalf("mew answer %s (choices, from this machine): %d\n%s%s", id, code, out, errOut)
	}
	a := s.mewAnswer(permissionPrompt, id, "1")
	s.answered("permission approved on the remote: mew answer → dialog gone", a)
	s.expect("turn ended → done on the remote", s.turnEnd(a.started), fast, onRemote(stateIs(session.Done)))
	if !fileExists(filepath.Join(s.r.Project, "made-by-claude")) {
		t.Error("the Bash command did not run")
	}
}
