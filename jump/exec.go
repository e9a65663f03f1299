package jump

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DefaultStepTimeout bounds each command of a jump. AppleScript that walks a
// few hundred tabs takes well under a second; an application that hangs
// must not hold the jump (or the next one) longer than this.
const DefaultStepTimeout = 3 * time.Second

// Exec runs one step and returns its standard output.
type Exec interface {
	Run(ctx context.Context, s Step) (string, error)
}

// StepResult is what one step did.
type StepResult struct {
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	Output   string `json:"output,omitempty"`
	Error    string `json:"error,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// Result is what a jump did.
type Result struct {
	Plan      Plan         `json:"plan"`
	Precision Precision    `json:"precision"` // what was reached
	Steps     []StepResult `json:"steps,omitempty"`
	Message   string       `json:"message"`
	// Dropped: a newer jump replaced this one before it started.
	Dropped bool `json:"dropped,omitempty"`
}

// ErrBadStep means a step failed the checks every step passes before it
// runs.
var ErrBadStep = errors.New("refused step")

// checkStep is the last line of defence for plans that did not come from
// Make: an absolute program, no NUL bytes, only known scripts.
func checkStep(s Step) error {
	if len(s.Argv) == 0 || !ValidPath(s.Argv[0]) {
		return fmt.Errorf("%w: the program must be an absolute path", ErrBadStep)
	}
	if s.ScriptName != "" && Scripts[s.ScriptName] == "" {
		return fmt.Errorf("%w: unknown script %q", ErrBadStep, clip(s.ScriptName))
	}
	for _, a := range append(append([]string{}, s.Argv...), s.Env...) {
		if strings.ContainsRune(a, 0) {
			return fmt.Errorf("%w: NUL byte in an argument", ErrBadStep)
		}
	}
	for _, e := range s.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return fmt.Errorf("%w: bad environment entry", ErrBadStep)
		}
	}
	return nil
}

// Execute carries a plan out: every inner step, then the outer alternatives
// until one works. Each step gets stepTimeout.
func Execute(ctx context.Context, ex Exec, p Plan, stepTimeout time.Duration) Result {
	if stepTimeout <= 0 {
		stepTimeout = DefaultStepTimeout
	}
	res := Result{Plan: p}
	run := func(s Step) bool {
		sr := StepResult{Name: s.Name}
		defer func() { res.Steps = append(res.Steps, sr) }()
		if err := checkStep(s); err != nil {
			sr.Error = err.Error()
			return false
		}
		if ctx.Err() != nil {
			sr.Error = "cancelled"
			return false
		}
		sctx, cancel := context.WithTimeout(ctx, stepTimeout)
		out, err := ex.Run(sctx, s)
		timedOut := sctx.Err() == context.DeadlineExceeded
		cancel()
		sr.Output = strings.TrimSpace(out)
		switch {
		case timedOut:
			sr.TimedOut = true
			sr.Error = fmt.Sprintf("no answer within %v", stepTimeout)
		case err != nil:
			sr.Error = err.Error()
		case s.Want != "" && sr.Output != s.Want:
			sr.Error = "answered " + strconvQuote(clip(sr.Output))
		default:
			sr.OK = true
		}
		return sr.OK
	}
	innerOK := true
	for _, s := range p.Inner {
		if !run(s) {
			innerOK = false
		}
	}
	outer := None
	for _, s := range p.Outer {
		if run(s) {
			outer = s.Gives
			break
		}
	}
	res.Precision = p.Outcome(innerOK, outer)
	if len(p.Inner) == 0 && len(p.Outer) == 0 {
		res.Precision = None
	}
	res.Message = message(res)
	return res
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// message says in one line what happened and, when the jump fell short,
// why.
func message(r Result) string {
	p := r.Plan
	host := p.Host
	if host == "" {
		host = "the terminal"
	}
	var failed []string
	for _, s := range r.Steps {
		if !s.OK {
			failed = append(failed, fmt.Sprintf("%s: %s", s.Name, s.Error))
		}
	}
	detail := p.Why
	if len(failed) > 0 {
		detail += "; failed: " + strings.Join(failed, "; ")
	}
	switch r.Precision {
	case Pane:
		return fmt.Sprintf("jumped to the pane (%s): %s", host, detail)
	case Tab:
		return fmt.Sprintf("jumped to the tab (%s): %s", host, detail)
	case Window:
		return fmt.Sprintf("jumped to the window (%s): %s", host, detail)
	case App:
		return fmt.Sprintf("brought %s forward, not the exact tab: %s", host, detail)
	}
	return "did not jump: " + detail
}

// CommandExec runs steps as processes: argument vectors, the AppleScript on
// standard input, no shell. A step that outlives its context is killed with
// its whole process group.
type CommandExec struct{}

// maxOutput bounds what is kept of a command's output.
const maxOutput = 64 << 10

// Run runs one step.
func (CommandExec) Run(ctx context.Context, s Step) (string, error) {
	if err := checkStep(s); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	if script := s.Script(); script != "" {
		cmd.Stdin = strings.NewReader(script)
	}
	cmd.Env = append(os.Environ(), s.Env...)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return stdout.String(), ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return stdout.String(), fmt.Errorf("%s: %v: %s", filepath.Base(s.Argv[0]), err, clip(msg))
		}
		return stdout.String(), fmt.Errorf("%s: %v", filepath.Base(s.Argv[0]), err)
	}
	return stdout.String(), nil
}

// Query runs a read-only command for Gather.
func Query(ctx context.Context, argv []string) (string, error) {
	return CommandExec{}.Run(ctx, Step{Argv: argv})
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ b []byte }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - len(c.b); room > 0 {
		if len(p) > room {
			c.b = append(c.b, p[:room]...)
		} else {
			c.b = append(c.b, p...)
		}
	}
	return len(p), nil
}

func (c *capped) String() string { return string(c.b) }
