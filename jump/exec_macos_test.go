package jump

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// scripted is an Exec whose answers are decided per program and argument:
// answer gets the step and returns its output and error; hang blocks until
// the step's deadline.
type scripted struct {
	answer   func(s Step) (string, error)
	timeouts []time.Duration // each step's time budget, in order
	ran      []string
}

func (e *scripted) Run(ctx context.Context, s Step) (string, error) {
	if d, ok := ctx.Deadline(); ok {
		e.timeouts = append(e.timeouts, time.Until(d).Round(time.Second))
	}
	e.ran = append(e.ran, strings.Join(s.Argv, " "))
	out, err := e.answer(s)
	if errors.Is(err, errHang) {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return out, err
}

var errHang = errors.New("hang")

func terminalPlan() Plan { return Make(mac(terminalHost(), nil)) }

// frontIs answers lsappinfo as macOS would with app in front.
func frontIs(app string) func(s Step) (string, bool) {
	return func(s Step) (string, bool) {
		if s.Argv[0] != lsappinfoPath {
			return "", false
		}
		if s.Argv[1] == "front" {
			return "ASN:0x0-0x1a01a:\n", true
		}
		return `"CFBundleIdentifier"="` + app + `"` + "\n", true
	}
}

// The first AppleScript to an app may wait on the Automation prompt: it
// gets PromptTimeout; once the app's events went through, the usual bound.
func TestTheAutomationPromptGetsTime(t *testing.T) {
	front := frontIs("com.apple.Terminal")
	e := &scripted{answer: func(s Step) (string, error) {
		if out, ok := front(s); ok {
			return out, nil
		}
		return "ok\n", nil
	}}
	allowed := map[string]bool{}
	o := Options{StepTimeout: 3 * time.Second, PromptTimeout: 60 * time.Second, Allowed: func(a string) bool { return allowed[a] }}
	res := ExecuteWith(context.Background(), e, terminalPlan(), o)
	if res.Precision != Tab || e.timeouts[0] != 60*time.Second {
		t.Fatalf("first jump: %s, budget %v (%s)", res.Precision, e.timeouts[0], res.Message)
	}
	if len(res.Allowed) != 1 || res.Allowed[0] != "Terminal" {
		t.Fatalf("allowed %v", res.Allowed)
	}
	allowed["Terminal"] = true
	e.timeouts = nil
	ExecuteWith(context.Background(), e, terminalPlan(), o)
	if e.timeouts[0] != 3*time.Second {
		t.Fatalf("once allowed, the script gets %v", e.timeouts[0])
	}
}

// A script that found the app not running sent it no event: that says
// nothing about the Automation permission.
func TestNotRunningIsNotAllowed(t *testing.T) {
	e := &scripted{answer: func(s Step) (string, error) {
		if s.ScriptName != "" {
			return "notrunning\n", nil
		}
		if out, ok := frontIs("com.apple.Terminal")(s); ok {
			return out, nil
		}
		return "", nil
	}}
	if res := ExecuteWith(context.Background(), e, terminalPlan(), Options{}); len(res.Allowed) != 0 {
		t.Fatalf("allowed %v after notrunning", res.Allowed)
	}
}

func TestAPromptLeftUnansweredIsExplained(t *testing.T) {
	e := &scripted{answer: func(s Step) (string, error) {
		if s.ScriptName != "" {
			return "", errHang
		}
		if out, ok := frontIs("com.apple.Terminal")(s); ok {
			return out, nil
		}
		return "", nil
	}}
	res := ExecuteWith(context.Background(), e, terminalPlan(), Options{PromptTimeout: 50 * time.Millisecond})
	if res.Precision != App || !strings.Contains(res.Message, "macOS may be asking whether Mew may control Terminal") {
		t.Fatalf("%s: %s", res.Precision, res.Message)
	}
	if len(res.Allowed) != 0 {
		t.Fatalf("a script that never answered counts as allowed: %v", res.Allowed)
	}
}

func TestRefusedAutomationIsExplained(t *testing.T) {
	e := &scripted{answer: func(s Step) (string, error) {
		if s.ScriptName != "" {
			return "", errors.New("osascript: exit status 1: execution error: Not authorized to send Apple events to Terminal. (-1743)")
		}
		if out, ok := frontIs("com.apple.Terminal")(s); ok {
			return out, nil
		}
		return "", nil
	}}
	res := ExecuteWith(context.Background(), e, terminalPlan(), Options{})
	if !strings.Contains(res.Message, "Privacy & Security › Automation") || !strings.Contains(res.Message, "tccutil reset AppleEvents dev.mew.Mew") {
		t.Fatalf("%s", res.Message)
	}
}

// From macOS 14 activation can be refused while the script says ok: the
// jump checks the front app, retries once with open -b, and reports
// nothing reached when the app still is not in front.
func TestActivationRefusedIsNotReportedAsAJump(t *testing.T) {
	for _, c := range []struct {
		name      string
		fronts    []string // what lsappinfo says, check by check
		want      Precision
		reopened  bool
		inMessage string
	}{
		{"in front at once", []string{"com.apple.Terminal"}, Tab, false, ""},
		{"in front after open -b", []string{"com.apple.Safari", "com.apple.Terminal"}, Tab, true, ""},
		{"refused", []string{"com.apple.Safari", "com.apple.Safari"}, None, true, "macOS kept com.apple.Safari in front"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checks := 0
			e := &scripted{answer: func(s Step) (string, error) {
				switch {
				case s.Argv[0] == lsappinfoPath && s.Argv[1] == "front":
					return "ASN:0x0-0x2b02b:", nil
				case s.Argv[0] == lsappinfoPath:
					app := c.fronts[min(checks, len(c.fronts)-1)]
					checks++
					return "bundleID=\"" + app + "\"", nil
				}
				return "ok", nil
			}}
			res := ExecuteWith(context.Background(), e, terminalPlan(), Options{})
			reopened := strings.Contains(strings.Join(e.ran, "\n"), "/usr/bin/open -b com.apple.Terminal")
			if res.Precision != c.want || reopened != c.reopened || !strings.Contains(res.Message, c.inMessage) {
				t.Fatalf("precision %s, reopened %v: %s\nran:\n%s", res.Precision, reopened, res.Message, strings.Join(e.ran, "\n"))
			}
		})
	}
}

// A front check that cannot run (lsappinfo missing, odd output) does not
// make a jump worse.
func TestAnUnreadableFrontChangesNothing(t *testing.T) {
	e := &scripted{answer: func(s Step) (string, error) {
		if s.Argv[0] == lsappinfoPath {
			return "", errors.New("no such file")
		}
		return "ok", nil
	}}
	if res := ExecuteWith(context.Background(), e, terminalPlan(), Options{}); res.Precision != Tab {
		t.Fatalf("%s: %s", res.Precision, res.Message)
	}
}

func TestFrontBundleID(t *testing.T) {
	for out, want := range map[string]string{
		`"CFBundleIdentifier"="com.apple.Terminal"`: "com.apple.Terminal",
		"bundleID=\"com.mitchellh.ghostty\"\n":      "com.mitchellh.ghostty",
		`"CFBundleIdentifier"=[ NULL ]`:             "",
		`bundleID="com.x; rm -rf"`:                  "",
		"":                                          "",
		`"LSDisplayName"="Terminal"` + "\n" + `bundleID="a.b.c"`: "a.b.c",
	} {
		if got := FrontBundleID(out); got != want {
			t.Errorf("FrontBundleID(%q) = %q, want %q", out, got, want)
		}
	}
}

// The Ghostty script's "ambiguous" (two terminals in one folder) is said
// plainly: only the app came forward, on purpose.
func TestAmbiguousIsSaid(t *testing.T) {
	f := mac(ghosttyHost(), nil)
	f.Agent.Tty = ""
	e := &scripted{answer: func(s Step) (string, error) {
		if s.ScriptName == "ghostty-by-cwd" {
			return "ambiguous", nil
		}
		if out, ok := frontIs("com.mitchellh.ghostty")(s); ok {
			return out, nil
		}
		return "", nil
	}}
	res := ExecuteWith(context.Background(), e, Make(f), Options{})
	if res.Precision != App || !strings.Contains(res.Message, "did not guess") {
		t.Fatalf("%s: %s", res.Precision, res.Message)
	}
}

// open -b returns before the app is in front: the check after it waits
// (a few looks, paused) instead of calling the jump refused at once.
func TestTheFrontCheckAfterOpenWaits(t *testing.T) {
	var paused []time.Duration
	defer func(p func(time.Duration)) { pause = p }(pause)
	pause = func(d time.Duration) { paused = append(paused, d) }
	checks := 0
	fronts := []string{"com.apple.Safari", "com.apple.Safari", "com.apple.Safari", "com.apple.Terminal"}
	e := &scripted{answer: func(s Step) (string, error) {
		switch {
		case s.Argv[0] == lsappinfoPath && s.Argv[1] == "front":
			return "ASN:0x0-0x2b02b:", nil
		case s.Argv[0] == lsappinfoPath:
			app := fronts[min(checks, len(fronts)-1)]
			checks++
			return "bundleID=\"" + app + "\"", nil
		}
		return "ok", nil
	}}
	res := ExecuteWith(context.Background(), e, terminalPlan(), Options{})
	if res.Precision != Tab || len(paused) == 0 {
		t.Fatalf("precision %s after %d checks, paused %v: %s", res.Precision, checks, paused, res.Message)
	}
}
