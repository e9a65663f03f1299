package driver

// Cline CLI (npm cline, pinned to ClineVersion; its platform package's Bun
// binary), as the census ran it (../shared/fixtures/census/cline/run.sh):
// `cline auth -p openai …` against the stand-in chat completions API at
// setup, the TUI with `--auto-approve false` (its default approves every
// tool call). It starts on a "Try ClinePass" modal that any key but Enter
// closes: the driver closes it with Esc, as a person would, before the run
// is ready. The TUI starts a hub daemon (`cline --cline-hub-daemon`, no
// terminal) that outlives it: each run gives it a port of its own
// (CLINE_HUB_PORT; 25463 by default, where a TUI would join another run's
// hub) and Close ends it by the pid in the run's ~/.cline.
// Mew's hook files go into ~/.cline/hooks (`mew install --agent cline`); the
// driver's observer files sit next to them as <Event>.sh, which Cline runs
// too.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"time"
)

const (
	AgentCline   = "cline"
	ClineVersion = "3.0.65"
)

var (
	clinePass = regexp.MustCompile(`Try ClinePass`)
	clineIdle = regexp.MustCompile(`❯ (What can I do for you\?|Ask anything)`)
)

func init() {
	// Ready is the input box or the modal over it (the box is not always
	// drawn before the modal); settle closes the modal.
	kits[AgentCline] = &kit{prepare: prepareCline, env: clineEnv, observe: observeCline,
		ready: regexp.MustCompile(clineIdle.String() + `|` + clinePass.String()), box: `❯\s*`,
		args:   func(*Run) []string { return []string{"--auto-approve", "false"} },
		settle: closeClinePass}
}

// ClineDir is the npm prefix `make cline-cli` installs Cline into.
func ClineDir(version string) (string, error) {
	c, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "cline-"+version), nil
}

// FindCline returns Cline's binary ($MEW_E2E_CLINE, or the one `make
// cline-cli` installed), checked with --version.
func FindCline(version string) (string, error) {
	path := os.Getenv("MEW_E2E_CLINE")
	if path == "" {
		dir, err := ClineDir(version)
		if err != nil {
			return "", err
		}
		path = filepath.Join(dir, "node_modules", ".bin", "cline")
	}
	return checkVersion(path, version, "make cline-cli")
}

// prepareCline configures the provider with Cline's own `cline auth`, as a
// person does (it writes ~/.cline/data/settings/providers.json; no daemon).
func prepareCline(r *Run) error {
	if err := gitInit(r.Project); err != nil {
		return err
	}
	c := exec.Command(r.Opts.Program, "auth", "-p", "openai", "-k", "fake-e2e-key", "-m", "fake-model", "-b", r.Opts.APIURL)
	c.Env = []string{"HOME=" + r.Home, "PATH=" + os.Getenv("PATH"), "CLINE_NO_AUTO_UPDATE=1"}
	c.Dir = r.Project
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("cline auth: %v: %s", err, out)
	}
	return nil
}

func clineEnv(r *Run) []string {
	port, err := freePort()
	env := []string{"CLINE_NO_AUTO_UPDATE=1"}
	if err == nil {
		env = append(env, "CLINE_HUB_PORT="+strconv.Itoa(port))
	}
	return env
}

// freePort is a loopback port nobody listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// closeClinePass waits for the ClinePass modal (drawn ~0.5 s after the
// input box) and closes it with Esc; a start without it goes on after 20 s.
func closeClinePass(r *Run, timeout time.Duration) error {
	modal, err := r.WaitScreen(r.Started, clinePass, min(timeout, 20*time.Second))
	if err != nil {
		r.TL.Addf(time.Now(), "note", "no ClinePass modal within 20 s")
		_, err := r.WaitScreen(r.Started, clineIdle, timeout)
		return err
	}
	for try := 0; try < 3; try++ {
		at, err := r.Keys("Escape")
		if err != nil {
			return err
		}
		if _, err := r.firstScreen(at, func(s string) bool { return !clinePass.MatchString(s) && clineIdle.MatchString(s) }, 5*time.Second); err == nil {
			r.TL.Addf(at, "note", "closed the ClinePass modal (shown at %.2f s) with Esc", modal.At.Sub(r.Started).Seconds())
			return nil
		}
	}
	return fmt.Errorf("the ClinePass modal did not close; screen:\n%s", Excerpt(r.Screen(), 12))
}

// observeCline writes the driver's observer as <Event>.sh for every event
// Cline knows: one JSON line per event, with the event's name and the
// session (sessionContext.rootSessionId, the id Mew's hook reads) at the
// top, as the observer log reader takes them. The log path is checked and
// quoted; the id is cut to a plain name.
func observeCline(r *Run, log string) error {
	q, err := shellQuote(log)
	if err != nil {
		return err
	}
	dir := filepath.Join(r.Home, ".cline", "hooks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, ev := range []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "PreToolUse", "PostToolUse",
		"UserPromptSubmit", "SessionShutdown"} {
		src := "#!/bin/sh\np=$(tr -d '\\n')\n" +
			`id=$(printf '%s' "$p" | sed -n 's/.*"rootSessionId":"\([A-Za-z0-9_-]*\)".*/\1/p')` + "\n" +
			`printf '{"hook_event_name":"` + ev + `","session_id":"%s","payload":%s}\n' "$id" "$p" >> ` + q + "\nexit 0\n"
		if err := os.WriteFile(filepath.Join(dir, ev+".sh"), []byte(src), 0o700); err != nil {
			return err
		}
	}
	return nil
}

// ClineHub is the pid of the run's Cline hub daemon (0 if none is
// running): the one its ~/.cline lock file names, if that process is
// still Cline's hub daemon.
func (r *Run) ClineHub() int {
	b, err := os.ReadFile(filepath.Join(r.Home, ".cline", "data", "locks", "hub", "production.json"))
	if err != nil {
		return 0
	}
	var d struct {
		Pid int `json:"pid"`
	}
	if json.Unmarshal(b, &d) != nil || d.Pid <= 1 {
		return 0
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(d.Pid) + "/cmdline")
	if err != nil || !bytes.Contains(cmdline, []byte("--cline-hub-daemon")) {
		return 0 // gone, or the pid was reused by something else
	}
	return d.Pid
}

// WaitClineHub waits up to timeout for the run's hub daemon and returns
// its pid (0 if none came). The TUI starts it seconds after its own start,
// or as it exits (measured: a session quit 14 s after the start left a
// daemon started at its exit).
func (r *Run) WaitClineHub(timeout time.Duration) int {
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		if pid := r.ClineHub(); pid > 0 || time.Now().After(deadline) {
			return pid
		}
	}
}

// killClineHub ends the run's hub daemon (SIGTERM, then SIGKILL after 2 s)
// and returns its pid (0 if none came within 5 s).
func (r *Run) killClineHub() int {
	pid := r.WaitClineHub(5 * time.Second)
	if pid == 0 || syscall.Kill(pid, syscall.SIGTERM) != nil {
		return 0
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && alive(pid) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return pid
}

// StatusWithProcScan is one `mew status --json` of the run with Mew's
// process scan on (the runs keep it off: it lists every parallel run's
// CLIs), for checking what the scan makes of a process of this run.
func (r *Run) StatusWithProcScan() Sample {
	var env []string
	for _, e := range r.Env {
		if e != "MEW_PROCSCAN=off" {
			env = append(env, e)
		}
	}
	return runStatus(context.Background(), r.Opts.Mew, env)
}
