// Package act carries out what the person asks of one session, named by
// its id or a unique prefix: it finds the session (one lookup for every
// caller: this machine's merged records first, then the remotes' lists),
// jumps to its terminal and types an answer into it. The panel, the
// terminal board, `mew jump` and `mew answer` all go through it, so a
// session one of them lists (a hook's, a screen's such as `tmux:%3`, a
// process's, another machine's) is one the others can act on.
package act

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// ErrNoSession: nothing has that id or prefix. Only then are the remotes
// asked: a prefix of several local sessions is an error, not a reason to
// act on another machine.
var ErrNoSession = errors.New("no session")

// Found is a session found by its id: this machine's record, or (OnRemote)
// a session of another machine as that machine reported it.
type Found struct {
	Record session.Record // this machine's session (OnRemote false)

	OnRemote bool
	Shown    session.Shown // the remote session, as its machine reported it
	Remote   remote.Remote // the machine it runs on
}

// ID is the found session's id.
func (f Found) ID() string {
	if f.OnRemote {
		return f.Shown.ID
	}
	return f.Record.ID
}

// Sessions finds sessions by id: in the records of the monitor's latest
// update (Set; what the boards show, every source merged), then on the
// remotes. Safe for concurrent use.
type Sessions struct {
	// Remotes is the hub following the other machines, asked only when no
	// session here matches (a command line attaches it then); nil, or a
	// nil hub, when there are none.
	Remotes func() *remote.Hub

	mu   sync.Mutex
	recs []*session.Record // read-only: shared with the monitor's updates
}

// Set takes the records of a one-shot command (monitor.Records).
func (s *Sessions) Set(recs []session.Record) {
	list := make([]*session.Record, len(recs))
	for i := range recs {
		list[i] = &recs[i]
	}
	s.Share(list)
}

// Share takes the records of a monitor update (monitor.Update.Records),
// read-only: they are not copied.
func (s *Sessions) Share(recs []*session.Record) {
	s.mu.Lock()
	s.recs = recs
	s.mu.Unlock()
}

func (s *Sessions) records() []*session.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recs
}

func (s *Sessions) hub() *remote.Hub {
	if s.Remotes == nil {
		return nil
	}
	return s.Remotes()
}

// Get is the session whose id is exactly id (what a board's row names).
func (s *Sessions) Get(id string) (Found, bool) {
	for _, r := range s.records() {
		if r.ID == id {
			return Found{Record: *r}, true
		}
	}
	// This machine's record first: a remote session with the same id is
	// not listed (remote.Merge).
	if hub := s.hub(); hub != nil {
		if sh, r, ok := hub.Find(id); ok {
			return Found{OnRemote: true, Shown: sh, Remote: r}, true
		}
	}
	return Found{}, false
}

// Find is the session named by want: its id, or a prefix of exactly one
// session's id, here or else on the remotes. The error wraps ErrNoSession
// when nothing matches, and names the matches of an ambiguous prefix.
func (s *Sessions) Find(want string) (Found, error) {
	rec, err := findByID(s.records(), func(r *session.Record) string { return r.ID }, want)
	if err == nil {
		return Found{Record: *rec}, nil
	}
	if !errors.Is(err, ErrNoSession) {
		return Found{}, err
	}
	hub := s.hub()
	if hub == nil {
		return Found{}, err
	}
	sh, rerr := findByID(hub.Sessions(), func(s session.Shown) string { return s.ID }, want)
	if rerr != nil {
		if errors.Is(rerr, ErrNoSession) {
			return Found{}, err
		}
		return Found{}, rerr
	}
	sh, r, ok := hub.Find(sh.ID)
	if !ok {
		return Found{}, err
	}
	return Found{OnRemote: true, Shown: sh, Remote: r}, nil
}

// findByID is the item whose id is want, or whose id want is the prefix
// of, if exactly one.
func findByID[T any](items []T, idOf func(T) string, want string) (T, error) {
	var zero T
	var matches []T
	for _, it := range items {
		if idOf(it) == want {
			return it, nil
		}
		if strings.HasPrefix(idOf(it), want) {
			matches = append(matches, it)
		}
	}
	switch len(matches) {
	case 0:
		return zero, fmt.Errorf("%w %q (see `mew status`)", ErrNoSession, want)
	case 1:
		return matches[0], nil
	}
	ids := make([]string, 0, len(matches))
	for _, m := range matches {
		ids = append(ids, idOf(m))
	}
	sort.Strings(ids)
	if len(ids) > 5 {
		ids = append(ids[:5], "…")
	}
	return zero, errors.New("prefix " + want + " matches several sessions: " + strings.Join(ids, ", "))
}
