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

// Two one-shot reads (`mew status` twice) by two sources sharing a memory
// file: the second knows the prompt the first saw went away; without the
// file it could not.
func TestScanRemembersBetweenOneShotReads(t *testing.T) {
	s := startServer(t)
	agent := s.fakeAgent(promptScreen, idleScreen)
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	memory := MemoryFile(t.TempDir(), s.socket)
	scan := func(mem string, want string) session.ScreenState {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			src := newSource(s)
			src.Memory = mem
			obs, err := src.Scan(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(obs) == 1 && obs[0].Screen.State == want {
				return *obs[0].Screen
			}
			if time.Now().After(deadline) {
				t.Fatalf("observations %+v; want the pane %s", obs, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	blocked := scan(memory, session.ScreenBlocked)
	s.tmux("send-keys", "-t", "work", "Enter") // the person answers
	idle := scan(memory, session.ScreenIdle)
	if !idle.Unblocked.After(blocked.Since) || !idle.Since.After(blocked.Since) {
		t.Fatalf("second read: unblocked %v, since %v; want both after the prompt was seen (%v)", idle.Unblocked, idle.Since, blocked.Since)
	}
	if fresh := scan("", session.ScreenIdle); !fresh.Unblocked.IsZero() {
		t.Fatalf("a read without memory knew the prompt went away: %+v", fresh)
	}
}
