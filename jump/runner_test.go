package jump

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeOsascript is a stand-in for /usr/bin/osascript: it records each call
// (its pid, arguments and the first line of the script it got on stdin) and
// whether another call was still running when it started; its second
// argument makes it sleep ("sleep:0.3"), hang ("hang") or answer "notfound".
const fakeOsascript = `#!/bin/sh
log="$FAKE_OSA_LOG"
if [ -f "$log.busy" ] && kill -0 "$(cat "$log.busy")" 2>/dev/null; then echo "overlap $*" >> "$log"; fi
echo $$ > "$log.busy"
first=$(head -n 1)
echo "start $$ $2 | $first" >> "$log"
case "$2" in
sleep:*) sleep "${2#sleep:}" ;;
hang) sleep 60 ;;
esac
echo "end $2" >> "$log"
rm -f "$log.busy"
case "$2" in
notfound*) echo notfound ;;
*) echo ok ;;
esac
`

type fakeOSA struct {
	bin, log string
}

func newFakeOSA(t *testing.T) fakeOSA {
	t.Helper()
	dir := t.TempDir()
	f := fakeOSA{bin: filepath.Join(dir, "osascript"), log: filepath.Join(dir, "calls.log")}
	if err := os.WriteFile(f.bin, []byte(fakeOsascript), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fakeOSA) step(label string, gives Precision) Step {
	return Step{
		Name: "fake " + label, Argv: []string{f.bin, "-", label},
		ScriptName: "terminal-tab", Env: []string{"FAKE_OSA_LOG=" + f.log}, Want: "ok", Gives: gives,
	}
}

func (f fakeOSA) lines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(f.log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// calls are the labels of the started calls, in order, and fails the test
// on any overlap.
func (f fakeOSA) calls(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, l := range f.lines(t) {
		if strings.HasPrefix(l, "overlap") {
			t.Errorf("two osascript calls ran at once: %s", l)
		}
		if rest, ok := strings.CutPrefix(l, "start "); ok {
			fields := strings.Fields(rest)
			out = append(out, fields[1])
			if !strings.Contains(l, "| on run argv") {
				t.Errorf("the script did not arrive on stdin: %s", l)
			}
		}
	}
	return out
}

func TestRunnerOneAtATimeNewestWins(t *testing.T) {
	osa := newFakeOSA(t)
	r := &Runner{Exec: CommandExec{}, StepTimeout: 10 * time.Second}
	var mu sync.Mutex
	results := map[string]Result{}
	done := func(name string) func(Result) {
		return func(res Result) {
			mu.Lock()
			results[name] = res
			mu.Unlock()
		}
	}
	started := make(chan struct{})
	r.Submit(func(context.Context) Plan {
		close(started)
		return Plan{Host: "A", Outer: []Step{osa.step("A:sleep:0.5", Tab)}}
	}, done("A"))
	<-started
	// Three more clicks while A runs: only the last one runs, after A.
	for _, name := range []string{"B", "C", "D"} {
		r.Submit(func(context.Context) Plan {
			return Plan{Host: name, Outer: []Step{osa.step(name, Tab)}}
		}, done(name))
	}
	r.Wait()

	if got := osa.calls(t); strings.Join(got, ",") != "A:sleep:0.5,D" {
		t.Errorf("calls = %q, want A then D only", got)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, name := range []string{"B", "C"} {
		if res := results[name]; !res.Dropped || res.Precision != None {
			t.Errorf("%s: %+v, want dropped", name, res)
		}
	}
	for _, name := range []string{"A", "D"} {
		if res := results[name]; res.Dropped || res.Precision != Tab {
			t.Errorf("%s: %+v, want a tab jump", name, res)
		}
	}
}

func TestRunnerTimeoutKillsHungStepAndGoesOn(t *testing.T) {
	osa := newFakeOSA(t)
	// Long enough for a loaded machine to start the fake; the hang sleeps 60 s.
	r := &Runner{Exec: CommandExec{}, StepTimeout: 2 * time.Second}
	resA := make(chan Result, 1)
	resB := make(chan Result, 1)
	started := make(chan struct{})
	r.Submit(func(context.Context) Plan {
		close(started)
		// The hung step is the first alternative; the second still runs
		// after the timeout.
		return Plan{Host: "A", Outer: []Step{osa.step("hang", Tab), osa.step("fallback", App)}}
	}, func(res Result) { resA <- res })
	<-started
	r.Submit(func(context.Context) Plan {
		return Plan{Host: "B", Outer: []Step{osa.step("B", Tab)}}
	}, func(res Result) { resB <- res })
	r.Wait()

	a := <-resA
	if len(a.Steps) != 2 || !a.Steps[0].TimedOut || a.Steps[0].OK || !a.Steps[1].OK || a.Precision != App {
		t.Errorf("A = %+v, want the hung step timed out and the fallback reached the app", a)
	}
	if b := <-resB; b.Precision != Tab {
		t.Errorf("B = %+v", b)
	}
	if got := osa.calls(t); strings.Join(got, ",") != "hang,fallback,B" {
		t.Errorf("calls = %q", got)
	}
	// The hung process was killed, not left behind.
	for _, l := range osa.lines(t) {
		if strings.HasPrefix(l, "end hang") {
			t.Error("the hung call ran to its end")
		}
		if strings.HasPrefix(l, "start ") && strings.Contains(l, " hang ") {
			pid, _ := strconv.Atoi(strings.Fields(l)[1])
			if pid > 0 && syscall.Kill(pid, 0) == nil {
				t.Errorf("hung osascript %d still runs", pid)
			}
		}
	}
}

func TestSubmitDoesNotWaitForARunningJump(t *testing.T) {
	osa := newFakeOSA(t)
	r := &Runner{Exec: CommandExec{}, StepTimeout: 2 * time.Second}
	release := make(chan struct{})
	finished := make(chan struct{})
	started := make(chan struct{})
	r.Submit(func(context.Context) Plan {
		close(started)
		<-release // the jump is busy until the test says so
		return Plan{Outer: []Step{osa.step("slow", Tab)}}
	}, func(Result) { close(finished) })
	<-started
	submitted := make(chan struct{})
	go func() {
		r.Submit(func(context.Context) Plan { return Plan{} }, nil)
		close(submitted)
	}()
	select {
	case <-submitted:
	case <-finished:
		t.Fatal("Submit waited for the running jump")
	}
	close(release)
	r.Wait()
}

func TestExecuteFallbacksAndRefusals(t *testing.T) {
	osa := newFakeOSA(t)
	p := Plan{Host: "Terminal", Why: "test", Outer: []Step{osa.step("notfound", Tab), osa.step("second", App)}}
	res := Execute(context.Background(), CommandExec{}, p, time.Second)
	if res.Precision != App || res.Steps[0].OK || res.Steps[0].Error != `answered "notfound"` || !strings.HasPrefix(res.Message, "brought Terminal forward") {
		t.Errorf("fallback: %+v", res)
	}

	// Inner steps all run; one failing caps the jump at the app.
	p = Plan{Host: "X", Inner: []Step{osa.step("in1", Pane), {Name: "bad", Argv: []string{"relative/tmux"}}}, Outer: []Step{osa.step("out", Tab)}}
	res = Execute(context.Background(), CommandExec{}, p, time.Second)
	if res.Precision != App || res.Steps[1].OK || !strings.Contains(res.Steps[1].Error, "absolute") {
		t.Errorf("inner failure: %+v", res)
	}

	// A script that is not one of the constants never runs.
	bad := osa.step("x", Tab)
	bad.ScriptName = "custom"
	res = Execute(context.Background(), CommandExec{}, Plan{Outer: []Step{bad}}, time.Second)
	if res.Precision != None || !strings.Contains(res.Steps[0].Error, "unknown script") {
		t.Errorf("unknown script: %+v", res)
	}
	for _, c := range osa.calls(t) {
		if c == "x" {
			t.Error("a step with an unknown script ran")
		}
	}

	if res := Execute(context.Background(), CommandExec{}, Plan{Why: "no host"}, time.Second); res.Precision != None || res.Message != "did not jump: no host" {
		t.Errorf("empty plan: %+v", res)
	}
}
