package web

import (
	"context"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/browsertest"
	"github.com/mew-dev/mew/session"
)

// The board in a real Chromium, on a phone-sized screen and on a desktop
// one: pairing with the code, the session's row and its buttons as a
// person sees them, "Yes" pressed with the mouse reaching the answerer
// once, and a new session appearing without a reload (server-sent events).
// The real agents' answers through it are the e2e suite's (e2e/web_test.go).
func TestBrowserPairsSeesAndAnswers(t *testing.T) {
	browsertest.Need(t)
	for _, c := range []struct {
		name string
		vp   browsertest.Viewport
	}{{"phone", browsertest.Phone}, {"desktop", browsertest.Desktop}} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, Options{})
			// A real server on loopback, as `mew serve` runs it (the
			// rig's httptest server is one too; Serve is what the command
			// uses, so it is the one the browser talks to).
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go r.s.Serve(ctx, ln)
			base := "http://" + ln.Addr().String()

			b := browsertest.Start(t, c.vp)
			// Not paired: the board is not shown, only the pairing form.
			b.Go(base + "/")
			if txt := b.WaitText(10*time.Second, "not paired"); strings.Contains(txt, "secret-project") {
				t.Fatalf("an unpaired browser sees the session:\n%s", txt)
			}
			code, _, _ := r.s.PairCode()
			b.Pair(base+"/pair?code="+code, "test "+c.name)

			txt := b.WaitText(10*time.Second, "secret-project", "waiting", "permission", "Bash: touch made-by-claude")
			for _, want := range []string{"Yes", "No", "Mute", "Snooze 1 h", "claude", "tmux %1"} {
				if !strings.Contains(txt, want) {
					t.Errorf("the page does not show %q:\n%s", want, txt)
				}
			}
			// The age is the page's script's: written once it runs.
			b.WaitMatch(5*time.Second, regexp.MustCompile(`waiting · permission · (59s|1m)`))
			yes := b.WaitButton("Yes", 5*time.Second)
			if c.vp.Mobile && (yes.H < 44 || yes.W < 0.8*float64(c.vp.W)-40) {
				t.Errorf("on a phone the Yes button is %.0f×%.0f px: too small a target", yes.W, yes.H)
			}
			if over, _ := browsertest.Eval[bool](b, `document.documentElement.scrollWidth > window.innerWidth + 1`); over {
				t.Error("the page is wider than the screen")
			}
			b.Screenshot(browsertest.ScreenshotDir(), "web-board-"+c.name)

			b.Press("Yes")
			b.WaitText(10*time.Second, "typed Yes")
			if got := r.answered(); len(got) != 1 || got[0].N != 1 {
				t.Fatalf("answers typed: %v, want Yes once", got)
			}

			// Live: a session that starts waiting shows without a reload.
			other := waiting("s2", "/home/p/other-project")
			other.Choices = []session.Choice{{N: 1, Label: "Allow once"}, {N: 2, Label: "Deny"}}
			r.s.Publish([]session.Shown{r.prompt, other})
			b.WaitText(10*time.Second, "other-project")
			b.WaitButton("Allow once", 5*time.Second)
		})
	}
}
