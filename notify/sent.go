package notify

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/session"
)

// SentName is the memory of the alerts sent ($MEW_HOME), so that a Mew
// restarted (a login service, `mew watch --headless` again) does not
// send again the alert of a wait it sent before.
const SentName = "alerts-sent.json"

// maxSent bounds the memory: the latest alert of this many sessions.
const maxSent = 256

// sentAlert is a session's last alert sent: its state and when that
// state began.
type sentAlert struct {
	State session.State `json:"state"`
	Since time.Time     `json:"since"`
	At    time.Time     `json:"at"`
}

// Sent remembers the alerts sent, in $MEW_HOME/alerts-sent.json.
type Sent struct {
	Home string
	Log  Logger
	mu   sync.Mutex
	m    map[string]sentAlert
}

func (s *Sent) load() {
	if s.m != nil {
		return
	}
	s.m = map[string]sentAlert{}
	_, err := privfile.ReadJSON(filepath.Join(s.Home, SentName), maxFile, &s.m)
	if err != nil && s.Log != nil {
		s.Log.Printf("notify: %s: %v (alerts sent before are forgotten)", SentName, err)
	}
	for id := range s.m {
		if !session.ValidID(id) {
			delete(s.m, id)
		}
	}
}

// Already says whether the alert of session id in state, which began at
// since, was sent before (by this Mew or one before a restart).
func (s *Sent) Already(id string, state session.State, since time.Time) bool {
	if s == nil || since.IsZero() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
	a, ok := s.m[id]
	return ok && a.State == state && a.Since.Equal(since)
}

// Note remembers that the alert was sent.
func (s *Sent) Note(id string, state session.State, since, now time.Time) {
	if s == nil || since.IsZero() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
	s.m[id] = sentAlert{State: state, Since: since, At: now}
	for len(s.m) > maxSent { // the oldest go first
		var oldest string
		for k, v := range s.m {
			if oldest == "" || v.At.Before(s.m[oldest].At) {
				oldest = k
			}
		}
		delete(s.m, oldest)
	}
	if s.Home == "" {
		return
	}
	if err := privfile.WriteJSON(filepath.Join(s.Home, SentName), s.m); err != nil && s.Log != nil {
		s.Log.Printf("notify: cannot write %s: %v", SentName, err)
	}
}
