// Package standin is what every stand-in model API of the end-to-end suite
// shares (fakeapi, fakeresponses, fakellm): a server on loopback and a
// record of the requests it answered, which a failing scenario prints.
package standin

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server is a stand-in's HTTP server on 127.0.0.1.
type Server struct {
	srv  *http.Server
	Addr string // 127.0.0.1:<port>
}

// Listen serves h on a random loopback port until Close.
func Listen(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, Addr: ln.Addr().String()}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and ends streams in flight.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		return s.srv.Close()
	}
	return nil
}

// Log records what a stand-in answered, safe for concurrent requests.
type Log[T any] struct {
	mu      sync.Mutex
	entries []T
}

// Add records e and returns its index (for Update).
func (l *Log[T]) Add(e T) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
	return len(l.entries) - 1
}

// Update changes entry i (a stream that finished, say).
func (l *Log[T]) Update(i int, f func(*T)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(&l.entries[i])
}

// All returns a copy of the entries so far.
func (l *Log[T]) All() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]T(nil), l.entries...)
}
