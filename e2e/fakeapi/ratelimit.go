package fakeapi

import "net/http"

// SetHeaders makes every Messages reply carry these headers: the
// rate-limit headers the real API sends (anthropic-ratelimit-unified-5h-
// utilization, -reset, ...), which Claude Code reads into its statusline
// input's rate_limits.
func (s *Server) SetHeaders(h map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.headers = make(map[string]string, len(h))
	for k, v := range h {
		s.headers[k] = v
	}
}

func (s *Server) addHeaders(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.headers {
		w.Header().Set(k, v)
	}
}
