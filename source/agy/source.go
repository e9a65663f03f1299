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

// Known is an agy session its hooks reported, with the transcript they
// named.
type Known struct{ ID, Transcript string }

// Source reads the transcripts of the agy sessions Sessions lists; only
// files under Brain (`~/.gemini/antigravity-cli/brain`) are read.
type Source struct {
	Brain    string
	Sessions func() []Known

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
	return &Source{Brain: filepath.Join(home, ".gemini", "antigravity-cli", "brain"), Sessions: FromStore(st)}, nil
}

// FromStore lists the stored agy sessions whose hooks named a transcript
// (re-reading only the session files that changed).
func FromStore(st store.Store) func() []Known {
	return store.Cached(st, func(r session.Record) (Known, bool) {
		ok := r.Agent == session.AgentAgy && r.Hook != nil && r.Hook.TranscriptPath != ""
		if !ok {
			return Known{}, false
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
	obs := s.observe()
	return obs, errors.Join(s.Problems()...)
}

// Watch implements source.Source.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	t := time.NewTicker(poll)
	defer t.Stop()
	sender := watchfs.Sender[[]source.Observation]{Out: out}
	for {
		if !sender.Send(ctx, s.observe(), false) {
			return nil
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil
		}
	}
}

// observe reads each known session's transcript that changed.
func (s *Source) observe() []source.Observation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tails == nil {
		s.tails = map[string]tail{}
	}
	s.problems = nil
	seen := map[string]bool{}
	var out []source.Observation
	for _, k := range s.Sessions() {
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
