package act

import (
	"errors"
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

func TestFindByIDOrPrefix(t *testing.T) {
	hub := followedHub(t, session.Shown{ID: "abz-far"}, session.Shown{ID: "abc-shadow"})
	asked := 0
	s := &Sessions{Remotes: func() *remote.Hub { asked++; return hub }}
	s.Set([]session.Record{{ID: "abc-1"}, {ID: "abd-2"}, {ID: "tmux:%1"}, {ID: "tmux:%10"}})
	for want, id := range map[string]string{"abc-1": "abc-1", "abc": "abc-1", "tmux:%1": "tmux:%1", "tmux:%10": "tmux:%10"} {
		f, err := s.Find(want)
		if err != nil || f.OnRemote || f.ID() != id {
			t.Errorf("Find(%q): %+v %v, want %s here", want, f, err, id)
		}
	}
	if asked != 0 {
		t.Errorf("the remotes were asked %d times for sessions found here", asked)
	}
	// Several here: an error, never a reason to look on another machine.
	if _, err := s.Find("ab"); err == nil || !strings.Contains(err.Error(), "matches several sessions: abc-1, abd-2") || asked != 0 {
		t.Errorf("ambiguous prefix: %v (remotes asked %d)", err, asked)
	}
	f, err := s.Find("abz")
	if err != nil || !f.OnRemote || f.ID() != "abz-far" || f.Remote.Name != "box" {
		t.Errorf("remote session: %+v %v", f, err)
	}
	if _, err := s.Find("zzz"); !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), `no session "zzz"`) {
		t.Errorf("unknown: %v", err)
	}
	// Exact ids for the boards: here first, then the remotes.
	if f, ok := s.Get("abc-shadow"); !ok || !f.OnRemote {
		t.Errorf("Get of a remote id: %+v %v", f, ok)
	}
	if f, ok := s.Get("abc-1"); !ok || f.OnRemote {
		t.Errorf("Get of a local id: %+v %v", f, ok)
	}
	if _, ok := s.Get("abc"); ok {
		t.Error("Get takes exact ids only")
	}
	none := &Sessions{}
	if _, err := none.Find("abc"); !errors.Is(err, ErrNoSession) {
		t.Errorf("no records, no remotes: %v", err)
	}
}
