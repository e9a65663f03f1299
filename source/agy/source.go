package agy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/store"
)

// maxTail is how much of a transcript's end is read: the latest steps.
const maxTail = 256 << 10

// poll is how often the transcripts are looked at while watching.
const poll = 500 * time.Millisecond

// relistEvery is how often Watch lists the sessions although StoreDir's
// watch says nothing changed (a missed event must not hide a session).
const relistEvery = time.Minute

// Known is an agy session its hooks reported, with the transcript they
// named; or, Other, a session of another agent (listed so that Watch
// knows whose changes need no listing).
type Known struct {
	ID, Transcript string
	Other          bool
}

// Source reads the transcripts of the agy sessions Sessions lists; only
// files under Brain (`~/.gemini/antigravity-cli/brain`) are read.
type Source struct {
	Brain    string
	Sessions func() []Known
	// StoreDir is where Sessions looks (the store's folder): Watch lists
	// the sessions again only when something there changed (fsnotify),
	// and reads transcripts only while there are some; "" lists them
	// every poll.
	StoreDir string

	mu       sync.Mutex
	tails    map[string]tail // transcript path → what was read
	problems []error
}

type tail struct {
	mod  time.Time
	size int64
	lg   session.LogState
	ok   bool
}

// New is the source for GEMINI_CLI_HOME (or the home folder), listing the
// sessions agy's hooks reported from st.
func New(st store.Store) (*Source, error) {
	home := os.Getenv("GEMINI_CLI_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		home = h
	}
	return &Source{Brain: filepath.Join(home, ".gemini", "antigravity-cli", "brain"), Sessions: FromStore(st), StoreDir: st.Dir()}, nil
}

// FromStore lists the stored sessions, agy's with the transcript its
// hooks named ("" until one does), re-reading only the session files that
// changed.
func FromStore(st store.Store) func() []Known {
	return store.Cached(st, func(r session.Record) (Known, bool) {
		if r.Agent != session.AgentAgy || r.Hook == nil {
			return Known{ID: r.ID, Other: true}, true
		}
		return Known{ID: r.ID, Transcript: r.Hook.TranscriptPath}, true
	})
}

// Name implements source.Source.
func (s *Source) Name() string { return "agy" }

// Problems implements source.Partial.
func (s *Source) Problems() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problems
}

// Scan implements source.Source.
func (s *Source) Scan(ctx context.Context) ([]source.Observation, error) {
	obs := s.observe(s.Sessions())
	return obs, errors.Join(s.Problems()...)
}

// Watch implements source.Source. It reads the known sessions'
// transcripts every poll, and lists the sessions again when a file in
// StoreDir changed (at most once a poll, and at least every relistEvery)
// that is not another agent's: with no agy session, a quiet store costs
// nothing, and a busy one a listing per session of another agent, however
// many changes they make.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	var changes <-chan fsnotify.Event
	var errs <-chan error
	if s.StoreDir != "" {
		if fw, err := fsnotify.NewWatcher(); err == nil {
			defer fw.Close()
			if fw.Add(s.StoreDir) == nil {
				changes, errs = fw.Events, fw.Errors
			}
		}
	}
	t := time.NewTimer(poll)
	defer t.Stop()
	var known []Known
	var listed time.Time
	stale := true
	// others are the sessions of other agents as last listed (a session's
	// agent never changes): their changes list nothing.
	others := map[string]bool{}
	agys := 0
	sender := watchfs.Sender[[]source.Observation]{Out: out}
	for {
		if stale || changes == nil || time.Since(listed) >= relistEvery {
			known, listed, stale = s.Sessions(), time.Now(), false
			clear(others)
			agys = 0
			for _, k := range known {
				if k.Other {
					others[k.ID] = true
				} else {
					agys++
				}
			}
		}
		if !sender.Send(ctx, s.observe(known), false) {
			return nil
		}
		// Transcripts to follow, or no watch of the store: poll. Else
		// wait for the store to change.
		wait := relistEvery
		if agys > 0 || changes == nil {
			wait = poll
		}
		t.Reset(wait)
	wait:
		for {
			select {
			case ev, ok := <-changes:
				if !ok {
					changes = nil
					break wait
				}
				base := filepath.Base(ev.Name)
				id, ok := strings.CutSuffix(base, ".json")
				if !ok || strings.HasPrefix(base, ".") {
					continue // a lock, a temporary file, a spool
				}
				if others[id] && ev.Op&fsnotify.Remove == 0 {
					continue
				}
				if !stale {
					stale = true
					// At most one listing a poll: a busy store (hundreds of
					// sessions' hooks) gathers its changes meanwhile.
					if d := poll - time.Since(listed); d < wait && agys == 0 {
						t.Reset(max(d, 0))
					}
				}
			case <-errs: // an overflow: list again
				stale = true
			case <-t.C:
				break wait
			case <-ctx.Done():
				return nil
			}
		}
	}
}

// observe reads the transcript of each known session that changed.
func (s *Source) observe(known []Known) []source.Observation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tails == nil {
		s.tails = map[string]tail{}
	}
	s.problems = nil
	seen := map[string]bool{}
	var out []source.Observation
	for _, k := range known {
		if k.Other || k.Transcript == "" {
			continue // another agent's, or no transcript named yet
		}
		path, err := s.check(k.ID, k.Transcript)
		if err != nil {
			s.problems = append(s.problems, err)
			continue
		}
		seen[path] = true
		t, err := s.read(path)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) { // not written yet: nothing to say
				s.problems = append(s.problems, fmt.Errorf("agy transcript of %s: %w", k.ID, err))
			}
			continue
		}
		if t.ok {
			lg := t.lg
			lg.File = filepath.Base(path)
			out = append(out, source.Observation{ID: k.ID, Agent: session.AgentAgy, Log: &lg})
		}
	}
	for p := range s.tails {
		if !seen[p] {
			delete(s.tails, p)
		}
	}
	return out
}

// check returns the transcript path a session's hooks named, once it is
// agy's own file for that conversation under Brain: a hook payload is the
// agent's word, not a path to follow anywhere.
func (s *Source) check(id, path string) (string, error) {
	want := filepath.Join(s.Brain, id, ".system_generated", "logs", "transcript.jsonl")
	if !filepath.IsAbs(path) || filepath.Clean(path) != want {
		return "", fmt.Errorf("agy session %s: its transcript %q is not %s", id, text.OneLine(text.Clip(path, 120), 0), want)
	}
	return want, nil
}

// read reads the tail of a regular file (never following a link) once its
// size or time changed.
func (s *Source) read(path string) (tail, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return tail{}, err
	}
	if !fi.Mode().IsRegular() {
		return tail{}, errors.New("not a regular file")
	}
	if t, ok := s.tails[path]; ok && t.mod.Equal(fi.ModTime()) && t.size == fi.Size() {
		return t, nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscallNoFollow, 0)
	if err != nil {
		return tail{}, err
	}
	defer f.Close()
	off := max(fi.Size()-maxTail, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, off, maxTail))
	if err != nil {
		return tail{}, err
	}
	if off > 0 { // cut in the middle of a line: start at the next one
		if i := strings.IndexByte(string(data[:min(len(data), 64<<10)]), '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	t := tail{mod: fi.ModTime(), size: fi.Size()}
	t.lg, t.ok = Parse(data)
	s.tails[path] = t
	return t, nil
}
