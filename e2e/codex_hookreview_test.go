package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeresponses"
	"github.com/mew-dev/mew/session"
)

// After `mew install`, Codex starts on its own "Hooks need review" dialog
// and waits for the person: Mew shows it waiting, with that reason, not
// idle (issue 40, item 6).
func TestCodexHookReviewIsWaiting(t *testing.T) {
	t.Parallel()
	s := needCodex(t)
	api, err := fakeresponses.Start(fakeresponses.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	r, err := driver.Launch(driver.Options{
		Agent: driver.AgentCodex, Codex: s.codex, CodexPackages: s.packages,
		APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew, Install: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.WaitScreen(r.Started, regexp.MustCompile(`Hooks need review`), ready); err != nil {
		t.Fatal(err)
	}
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
