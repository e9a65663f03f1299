// Package alertprefs keeps the person's per-session mutes and snoozes in
// $MEW_HOME/alerts.json (0600), shared by the terminal board, the panel and
// `mew watch --headless`: a mute set in one is heard by the one that sends.
package alertprefs

import (
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/privfile"

	"github.com/mew-dev/mew/session"
)

// Name is the file's name in $MEW_HOME.
const Name = "alerts.json"

// maxSize bounds what Load reads: a hand-edited or hostile file costs no
// more than this.
const maxSize = 1 << 20

// Prefs is the file's content.
type Prefs struct {
	Muted   map[string]bool      `json:"muted,omitempty"`
	Snoozed map[string]time.Time `json:"snoozed,omitempty"`
}

// Store reads and writes the file, one change at a time within a process.
type Store struct {
	Home string
	mu   sync.Mutex
}

func (s *Store) path() string { return filepath.Join(s.Home, Name) }

// Load returns the prefs; a missing file is none. Invalid ids are dropped.
func (s *Store) Load() (Prefs, error) {
	var p Prefs
	if _, err := privfile.ReadJSON(s.path(), maxSize, &p); err != nil {
		return Prefs{}, err
	}
	for id := range p.Muted {
		if !session.ValidID(id) {
			delete(p.Muted, id)
		}
	}
	for id := range p.Snoozed {
		if !session.ValidID(id) {
			delete(p.Snoozed, id)
		}
	}
	return p, nil
}

// ToggleMute mutes id, or unmutes it when muted, and says which.
func (s *Store) ToggleMute(id string) (muted bool, err error) {
	err = s.change(id, func(p *Prefs, now time.Time) {
		muted = !p.Muted[id]
		if muted {
			if p.Muted == nil {
				p.Muted = map[string]bool{}
			}
			p.Muted[id] = true
		} else {
			delete(p.Muted, id)
		}
	})
	return muted, err
}

// ToggleSnooze snoozes id until now+d, or ends its snooze when one runs,
// and says which. Snoozes that ended are forgotten.
func (s *Store) ToggleSnooze(id string, now time.Time, d time.Duration) (until time.Time, err error) {
	err = s.change(id, func(p *Prefs, _ time.Time) {
		for k, t := range p.Snoozed {
			if !now.Before(t) {
				delete(p.Snoozed, k)
			}
		}
		if _, on := p.Snoozed[id]; on {
			delete(p.Snoozed, id)
			return
		}
		if p.Snoozed == nil {
			p.Snoozed = map[string]time.Time{}
		}
		until = now.Add(d)
		p.Snoozed[id] = until
	})
	return until, err
}

func (s *Store) change(id string, f func(*Prefs, time.Time)) error {
	if !session.ValidID(id) {
		return errors.New("not a session id")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.Load()
	if err != nil {
		return err
	}
	f(&p, time.Now())
	return privfile.WriteJSON(s.path(), p)
}
