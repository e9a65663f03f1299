package tmux

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Without a UTF-8 locale (Mew started by launchd has no LANG), tmux prints
// the tabs of list-panes' format and every non-ASCII character of a screen
// as "_" unless told -u: the pane and its ❯ prompt are still read.
func TestPanesAreReadWithoutAUTF8Locale(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	for _, k := range []string{"LANG", "LC_ALL", "LC_CTYPE"} {
		t.Setenv(k, "")
	}
	src := newSource(s)
	deadline := time.Now().Add(10 * time.Second)
	for {
		obs, err := src.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("observations %+v; want the agent's pane, blocked", obs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
