package driver

import (
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/mew-dev/mew/session"
)

// Headless prepares a run's isolated home as Launch does (Mew installed
// when asked) and returns the CLI as a headless command, `claude -p` with
// args, not started: the caller gives it its stdin and reads its stdout, as
// an SDK app does. Nothing is sampled; ask Mew with Mew or MewStatus.
func Headless(o Options, args ...string) (*Run, *exec.Cmd, error) {
	r, _, err := prepare(o)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(o.Claude, append([]string{"-p"}, args...)...)
	cmd.Dir, cmd.Env = r.Project, r.Env
	return r, cmd, nil
}

// Mew runs the mew binary with args in the run's environment and returns
// what it printed.
func (r *Run) Mew(args ...string) (string, error) {
	c := exec.Command(r.Opts.Mew, args...)
	c.Env, c.Dir = r.Env, r.Home
	out, err := c.Output()
	if err != nil {
		return string(out), fmt.Errorf("mew %v: %w", args, err)
	}
	return string(out), nil
}

// MewStatus is `mew status --json` in the run's environment.
func (r *Run) MewStatus() ([]session.Shown, error) {
	out, err := r.Mew("status", "--json")
	if err != nil {
		return nil, err
	}
	var shown []session.Shown
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		return nil, fmt.Errorf("mew status --json: %w", err)
	}
	return shown, nil
}
