package jump

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/terminal"
	"github.com/mew-dev/mew/terminal/termid"
)

// DefaultStepTimeout bounds each command of a jump. AppleScript that walks a
// few hundred tabs takes well under a second; an application that hangs
// must not hold the jump (or the next one) longer than this.
const DefaultStepTimeout = 3 * time.Second

// PromptTimeout bounds a step that may make macOS ask the person whether
// Mew may control an application (Automation, the first Apple Event Mew
// sends it): osascript waits for the answer, and killing it after
// DefaultStepTimeout made the first jump to every app fail. Once an app's
// events went through, its steps get the usual bound again.
const PromptTimeout = 90 * time.Second

// Options bound and inform Execute.
type Options struct {
	StepTimeout   time.Duration // DefaultStepTimeout when 0
	PromptTimeout time.Duration // PromptTimeout when 0
	// Allowed reports the applications whose Apple Events went through
	// before (no prompt can show for them); nil: none known.
	Allowed func(app string) bool
}

// Exec runs one step and returns its standard output.
type Exec interface {
	Run(ctx context.Context, s Step) (string, error)
}

// StepResult is what one step did.
type StepResult struct {
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	Asks     string `json:"asks,omitempty"` // the step's Step.Asks
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
	// Allowed are the applications whose Apple Events went through in
	// this jump (osascript answered), for Options.Allowed next time.
	Allowed []string `json:"-"`
	// Front is the application that was in front after the jump, when
	// the plan asked to verify it.
	Front string `json:"front,omitempty"`
}

// ErrBadStep means a step failed the checks every step passes before it
// runs.
var ErrBadStep = errors.New("refused step")

// checkStep is the last line of defence for plans that did not come from
// Make: an absolute program, no NUL bytes, only known scripts.
func checkStep(s Step) error {
	if len(s.Argv) == 0 || !termid.ValidPath(s.Argv[0]) {
		return fmt.Errorf("%w: the program must be an absolute path", ErrBadStep)
	}
	if s.ScriptName != "" && Scripts[s.ScriptName] == "" {
		return fmt.Errorf("%w: unknown script %q", ErrBadStep, text.Clip(s.ScriptName, maxQuoted))
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
	return ExecuteWith(ctx, ex, p, Options{StepTimeout: stepTimeout})
}

// ExecuteWith is Execute with all its options: a step that may show the
// Automation prompt gets o.PromptTimeout unless its app is allowed
// already; and when the plan asks, the host's coming to the front is
// verified (and retried once with open -b) after the outer steps.
func ExecuteWith(ctx context.Context, ex Exec, p Plan, o Options) Result {
	if o.StepTimeout <= 0 {
		o.StepTimeout = DefaultStepTimeout
	}
	if o.PromptTimeout <= 0 {
		o.PromptTimeout = PromptTimeout
	}
	res := Result{Plan: p}
	run := func(s Step) (string, bool) {
		sr := StepResult{Name: s.Name, Asks: s.Asks}
		defer func() { res.Steps = append(res.Steps, sr) }()
		if err := checkStep(s); err != nil {
			sr.Error = err.Error()
			return "", false
		}
		if ctx.Err() != nil {
			sr.Error = "cancelled"
			return "", false
		}
		timeout := o.StepTimeout
		if s.Asks != "" && (o.Allowed == nil || !o.Allowed(s.Asks)) {
			timeout = max(timeout, o.PromptTimeout)
		}
		sctx, cancel := context.WithTimeout(ctx, timeout)
		out, err := ex.Run(sctx, s)
		timedOut := sctx.Err() == context.DeadlineExceeded
		cancel()
		sr.Output = strings.TrimSpace(out)
		switch {
		case timedOut:
			sr.TimedOut = true
			sr.Error = fmt.Sprintf("no answer within %v", timeout)
		case err != nil:
			sr.Error = err.Error()
		case s.Want != "" && sr.Output != s.Want:
			sr.Error = "answered " + strconvQuote(text.Clip(sr.Output, maxQuoted))
		default:
			sr.OK = true
		}
		// The script ran inside `tell application`: its events went
		// through. "notrunning" is said before any event is sent.
		if s.Asks != "" && err == nil && !timedOut && sr.Output != "notrunning" && !slices.Contains(res.Allowed, s.Asks) {
			res.Allowed = append(res.Allowed, s.Asks)
		}
		return sr.Output, sr.OK
	}
	innerOK := true
	for _, s := range p.Inner {
		if _, ok := run(s); !ok {
			innerOK = false
		}
	}
	outer := None
	for _, s := range p.Outer {
		if skipStep(s, o.Allowed) {
			continue
		}
		if _, ok := run(s); ok {
			outer = s.Gives
			break
		}
	}
	res.Precision = p.Outcome(innerOK, outer)
	if len(p.Inner) == 0 && len(p.Outer) == 0 {
		res.Precision = None
	}
	if v := p.Verify; v != nil && outer != None {
		if !verifyFront(v, run, &res) {
			res.Precision = None
		}
	}
	res.Message = message(res)
	return res
}

// skipStep says whether an outer step is left out: its application took
// Mew's Apple Events already, so the AppleScript after it, which can say
// that it did not find the session, is used instead (Step.OnlyUntilAllowed).
func skipStep(s Step, allowed func(app string) bool) bool {
	return s.OnlyUntilAllowed != "" && allowed != nil && allowed(s.OnlyUntilAllowed)
}

// verifyFront checks that v.BundleID is the frontmost application; when
// it is not, it opens the app with LaunchServices (v.Reopen) and checks
// again. From macOS 14 an app can be refused activation while its script
// still answers ok. A check that cannot run changes nothing.
func verifyFront(v *Verify, run func(Step) (string, bool), res *Result) bool {
	front := func() (string, bool) {
		asn, ok := run(Step{Name: "which application is in front", Argv: []string{v.Lsappinfo, "front"}})
		if !ok || !validASN.MatchString(asn) {
			return "", false
		}
		out, ok := run(Step{Name: "its bundle id", Argv: []string{v.Lsappinfo, "info", "-only", "bundleid", asn}})
		if !ok {
			return "", false
		}
		id := FrontBundleID(out)
		return id, id != ""
	}
	id, ok := front()
	if !ok || id == v.BundleID {
		res.Front = id
		return true
	}
	run(v.Reopen)
	// open -b returns once LaunchServices took the request, before the
	// app is in front: look a few times before calling it refused.
	for i := range reopenChecks {
		if i > 0 {
			pause(reopenPause)
		}
		if id2, ok := front(); ok {
			id = id2
			if id == v.BundleID {
				break
			}
		}
	}
	res.Front = id
	return id == v.BundleID
}

// How long verifyFront looks for the app in front after open -b: up to
// reopenChecks checks, reopenPause apart (about 1 s in all).
const (
	reopenChecks = 6
	reopenPause  = 200 * time.Millisecond
)

// pause waits between front checks (a variable for tests).
var pause = time.Sleep

// validASN is what `lsappinfo front` prints: an application serial number.
var validASN = regexp.MustCompile(`^ASN:0x[0-9a-fA-F]+-0x[0-9a-fA-F]+:$`)

// FrontBundleID reads the bundle id from `lsappinfo info -only bundleid`:
// a line `"CFBundleIdentifier"="com.apple.Terminal"` (older releases) or
// `bundleID="com.apple.Terminal"`. "" when there is none or it is not a
// bundle id.
func FrontBundleID(out string) string {
	for _, line := range strings.Split(out, "\n") {
		key, val, ok := strings.Cut(line, "=")
		if k := strings.ToLower(key); !ok || !strings.Contains(k, "bundleid") && !strings.Contains(k, "bundleidentifier") {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' && termid.ValidBundleID(val[1:len(val)-1]) {
			return val[1 : len(val)-1]
		}
	}
	return ""
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
	for _, s := range r.Steps {
		if s.Output == "ambiguous" {
			detail += "; more than one terminal matches, so Mew did not guess (a click that does nothing beats one that shows the wrong session)"
		}
		switch {
		case s.Asks == "" || s.OK:
		case s.TimedOut:
			detail += fmt.Sprintf("; macOS may be asking whether Mew may control %s: answer the prompt, then click again", s.Asks)
		case strings.Contains(s.Error, "-1743"): // errAEEventNotPermitted
			detail += "; " + terminal.AutomationRefused(s.Asks)
		}
	}
	if v := p.Verify; v != nil && r.Front != "" && r.Front != v.BundleID {
		detail += fmt.Sprintf("; macOS kept %s in front (it may refuse to switch apps for a background app)", r.Front)
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

// CommandExec runs steps as processes (terminal.RunProcess): argument
// vectors, the AppleScript on standard input, no shell. A step that
// outlives its context is killed with its whole process group.
type CommandExec struct{}

// Run runs one step.
func (CommandExec) Run(ctx context.Context, s Step) (string, error) {
	if err := checkStep(s); err != nil {
		return "", err
	}
	return terminal.RunProcess(ctx, s.Argv, s.Script(), s.Env)
}

// Query runs a read-only command for Gather.
func Query(ctx context.Context, argv []string) (string, error) {
	return CommandExec{}.Run(ctx, Step{Argv: argv})
}
