package fakeresponses

import (
	"net/http"
	"sync"
)

// headerSet is what SetHeaders keeps (a field of its own, so the server's
// struct stays as it was).
type headerSet struct {
	mu sync.Mutex
	h  map[string]string
}

// SetHeaders makes every streamed reply carry these headers: the
// rate-limit headers Codex reads (x-codex-primary-used-percent,
// -primary-window-minutes, -primary-reset-at, and the secondary ones)
// into its token_count's rate_limits.
func (s *Server) SetHeaders(h map[string]string) {
	s.extra.mu.Lock()
	defer s.extra.mu.Unlock()
	s.extra.h = make(map[string]string, len(h))
	for k, v := range h {
		s.extra.h[k] = v
	}
}

func (s *Server) addHeaders(w http.ResponseWriter) {
	s.extra.mu.Lock()
	defer s.extra.mu.Unlock()
	for k, v := range s.extra.h {
		w.Header().Set(k, v)
	}
}
