package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// startOnHookReview starts Codex after `mew install` and waits for its
// "Hooks need review" dialog; the test's end ends it.
func startOnHookReview(t *testing.T) *driver.Run {
	s := needCodex(t)
	api, err := fakeresponses.Start(fakeresponses.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	r, err := driver.Launch(driver.Options{
		Agent: driver.AgentCodex, Codex: s.codex, CodexPackages: s.packages,
		APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew, Install: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	if _, err := r.WaitScreen(r.Started, regexp.MustCompile(`Hooks need review`), ready); err != nil {
		t.Fatal(err)
	}
	return r
}

// After `mew install`, Codex starts on its own "Hooks need review" dialog
// and waits for the person: Mew shows it waiting, with that reason, not
// idle (issue 40, item 6).
func TestCodexHookReviewIsWaiting(t *testing.T) {
	t.Parallel()
	r := startOnHookReview(t)
	var last []session.Shown
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		shown, err := r.MewStatus()
		if err != nil {
			t.Fatal(err)
		}
		last = shown
		for _, sh := range shown {
			if sh.Agent == session.AgentCodex && sh.State == session.Waiting && sh.Reason == session.ReasonInput &&
				strings.Contains(sh.ToolDetail, "Hooks need review") {
				t.Logf("shown: %s", driver.ShownString(sh))
				return
			}
		}
	}
	var rows []string
	for _, sh := range last {
		rows = append(rows, driver.ShownString(sh)+" detail="+sh.ToolDetail)
	}
	t.Fatalf("Codex on its hook review is not shown waiting for it: %q\nscreen:\n%s", rows, driver.Excerpt(r.Screen(), 20))
}

// The same dialog where Mew reads no screen of it (a plain terminal: here
// a tmux server Mew does not read): no rollout, no hook and no screen
// tell, and the Codex source, knowing Mew's hooks await review, shows the
// Codex with no session waiting on that dialog, in the one-shot `mew
// status` (issue 40, item 6).
func TestCodexHookReviewIsWaitingOutsideTmux(t *testing.T) {
	t.Parallel()
	r := startOnHookReview(t)
	// Mew reads another tmux server: this pane is not one it reads.
	env := append(append([]string(nil), r.Env...), "MEW_TMUX_SOCKET="+filepath.Join(r.Home, "no-such-tmux"))
	status := func() []session.Shown {
		c := exec.Command(r.Opts.Mew, "status", "--json")
		c.Env, c.Dir = env, r.Home
		out, err := c.Output()
		if err != nil {
			t.Fatalf("mew status: %v", err)
		}
		var shown []session.Shown
		if err := json.Unmarshal(out, &shown); err != nil {
			t.Fatal(err)
		}
		return shown
	}
	onReview := func(sh session.Shown) bool {
		return sh.Agent == session.AgentCodex && sh.State == session.Waiting && sh.Reason == session.ReasonInput &&
			strings.Contains(sh.ToolDetail, "Hooks need review")
	}
	rows := func(shown []session.Shown) (out []string) {
		for _, sh := range shown {
			out = append(out, driver.ShownString(sh)+" detail="+sh.ToolDetail)
		}
		return out
	}
	var last []session.Shown
	seen := false
	for deadline := time.Now().Add(20 * time.Second); !seen && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		last = status()
		seen = slices.ContainsFunc(last, onReview)
	}
	if !seen {
		t.Fatalf("Codex on its hook review, outside the tmux Mew reads, is not shown waiting for it: %q\nscreen:\n%s", rows(last), driver.Excerpt(r.Screen(), 20))
	}
	// `mew status --watch` says the same, and follows the answer.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := exec.CommandContext(ctx, r.Opts.Mew, "status", "--watch", "--json")
	w.Env, w.Dir = env, r.Home
	pipe, err := w.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Wait()
	defer cancel()
	lines := make(chan session.Shown, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			var sh session.Shown
			if json.Unmarshal(sc.Bytes(), &sh) == nil {
				lines <- sh
			}
		}
	}()
	next := func(want func(session.Shown) bool, what string) session.Shown {
		for sh := range lines {
			if want(sh) {
				return sh
			}
		}
		t.Fatalf("mew status --watch: no line %s", what)
		return session.Shown{}
	}
	waiting := next(onReview, "waiting on the review")
	// "Continue without trusting": the hooks stay untrusted and no rollout
	// comes before a turn, but Codex made its session: no longer waiting.
	if err := r.AnswerHookReview(false, ready); err != nil {
		t.Fatal(err)
	}
	after := next(func(sh session.Shown) bool { return sh.ID == waiting.ID && sh.State != session.Waiting }, "after the answer")
	t.Logf("watch: %s, then %s", driver.ShownString(waiting), after.State)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if last = status(); !slices.ContainsFunc(last, onReview) {
			t.Logf("after the answer: %q", rows(last))
			return
		}
	}
	t.Fatalf("still waiting on the review after it was answered: %q", rows(last))
}
