package jump

import (
	"context"
	"strings"
	"testing"
)

// Every step a planner makes says its kind: Plan.Mechanism is read from
// the kinds, never guessed from the argument vectors.
func TestEveryStepHasAKind(t *testing.T) {
	for name, f := range planCases() {
		p := Make(f)
		steps := append(append([]Step{}, p.Inner...), p.Outer...)
		if p.Verify != nil {
			steps = append(steps, p.Verify.Reopen)
		}
		for _, s := range steps {
			if s.Kind == "" {
				t.Errorf("%s: step %q has no kind", name, s.Name)
			}
			if (s.Kind == StepAppleScript) != (s.ScriptName != "") {
				t.Errorf("%s: step %q: kind %s with script %q", name, s.Name, s.Kind, s.ScriptName)
			}
		}
	}
}

func TestITermRevealNeeds350(t *testing.T) {
	for _, c := range []struct {
		version string
		use     bool
	}{
		{"3.5.0", true}, {"3.5.4", true}, {"3.6", true}, {"4.0.0", true}, {"3.5.0beta3", true},
		{"3.5.20250101-nightly", true},
		{"3.4.23", false}, {"3.4", false}, {"3", false}, {"2.9.20140903", false}, {"3.4.99beta1", false},
		{"", true}, {"unknown", true}, {"v3.4", true}, // unknown: taken as current
	} {
		use, why := ITermReveal(c.version)
		if use != c.use {
			t.Errorf("ITermReveal(%q) = %v (%s), want %v", c.version, use, why, c.use)
		}
		if !use && !strings.Contains(why, "older than 3.5.0") {
			t.Errorf("ITermReveal(%q): why %q", c.version, why)
		}
	}
}

// The reveal URL is taken only while iTerm2 has not taken Mew's Apple
// Events: after that the AppleScript by id, which can say it did not find
// the session (an id iTerm2 does not know: the URL is ignored and open(1)
// still exits 0), falls through to the tty.
func TestITermRevealFallsBackOnceAppleEventsWork(t *testing.T) {
	const guid = "6A3C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F"
	f := Facts{GOOS: "darwin", SessionID: "s1",
		Agent: Agent{Pid: 10, Alive: true, Tty: "/dev/ttys003", Env: map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid}},
		Host:  &Host{Kind: KindITerm, BundleID: "com.googlecode.iterm2", AppPath: "/Applications/iTerm.app", Pid: 5}}
	p := Make(f)
	run := func(allowed bool) []string {
		var ran []string
		ex := execFunc(func(s Step) (string, error) {
			ran = append(ran, s.Name)
			switch s.ScriptName {
			case "iterm-by-id":
				return "notfound", nil // an id iTerm2 does not know
			case "iterm-by-tty":
				return "ok", nil
			}
			return "", nil
		})
		ExecuteWith(context.Background(), ex, Plan{Outer: p.Outer, Precision: p.Precision}, Options{Allowed: func(app string) bool { return allowed && app == "iTerm2" }})
		return ran
	}
	first := run(false)
	if len(first) != 1 || !strings.Contains(first[0], "reveal") {
		t.Errorf("before any Apple Event: %q, want the reveal URL alone", first)
	}
	later := run(true)
	if len(later) != 2 || !strings.Contains(later[0], "select session") || !strings.Contains(later[1], "/dev/ttys003") {
		t.Errorf("once allowed: %q, want by id, then by tty", later)
	}
}

type execFunc func(Step) (string, error)

func (f execFunc) Run(_ context.Context, s Step) (string, error) { return f(s) }
