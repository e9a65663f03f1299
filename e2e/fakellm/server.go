package fakellm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/e2e/standin"
)

// maxBody bounds what the server reads of one request (the CLIs send their
// whole system prompt and tool schemas every time).
const maxBody = 32 << 20

// Logged is one request the server answered.
type Logged struct {
	At     time.Time `json:"at"`
	API    string    `json:"api"` // "openai" | "gemini"
	Path   string    `json:"path"`
	Status int       `json:"status"`
	Why    string    `json:"why,omitempty"`
	// Result is the newest tool result's text the request carried (what
	// the agent told the model a call gave: the person's answer to a
	// question).
	Result string `json:"result,omitempty"`
}

// Server is a running stand-in on 127.0.0.1.
type Server struct {
	// OpenAIURL is the chat completions base URL (…/v1), GeminiURL what
	// GOOGLE_GEMINI_BASE_URL takes.
	OpenAIURL, GeminiURL string
	timing               Timing
	http                 *standin.Server
	log                  standin.Log[Logged]

	mu    sync.Mutex
	tries map[string]int // scenario/step → requests answered
}

// Start listens on a random loopback port and serves until Close.
func Start(t Timing) (*Server, error) {
	s := &Server{timing: t, tries: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1beta/models/{call}", s.gemini)
	mux.HandleFunc("/", s.notFound)
	srv, err := standin.Listen(mux)
	if err != nil {
		return nil, err
	}
	base := "http://" + srv.Addr
	s.http, s.OpenAIURL, s.GeminiURL = srv, base+"/v1", base
	return s, nil
}

// Close stops the server and ends streams in flight.
func (s *Server) Close() error { return s.http.Close() }

// Log returns a copy of the requests answered so far.
func (s *Server) Log() []Logged { return s.log.All() }

// reply decides and logs the answer to a request of api.
func (s *Server) reply(api, path string, c turn) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := c.scenario + "/" + fmt.Sprint(c.step)
	if c.tools {
		c.retried = s.tries[key]
		s.tries[key]++
	}
	r := decide(c, s.timing)
	status := http.StatusOK
	if r.Kind == "error" {
		status = r.Status
	}
	s.log.Add(Logged{At: time.Now(), API: api, Path: path, Status: status, Why: r.Why, Result: c.result})
	return r
}

func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err == nil && len(body) > maxBody {
		err = fmt.Errorf("larger than %d bytes", maxBody)
	}
	if err == nil {
		err = json.Unmarshal(body, v)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "unreadable request: "+err.Error())
		return false
	}
	return true
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
	s.log.Add(Logged{At: time.Now(), Path: r.URL.Path, Status: 404})
	writeError(w, http.StatusNotFound, fmt.Sprintf("the e2e stand-in serves chat completions and Gemini generateContent only, not %s %s", r.Method, r.URL.Path))
}

// sse starts a server-sent event stream; send writes one data event.
func sse(w http.ResponseWriter, ctx context.Context) (send func(v any) error, err error) {
	fl, ok := w.(http.Flusher)
	if !ok {
		return nil, fmt.Errorf("response writer cannot flush")
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return func(v any) error {
		var b []byte
		if s, ok := v.(string); ok {
			b = []byte(s)
		} else if b, err = json.Marshal(v); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return err
		}
		fl.Flush()
		return ctx.Err()
	}, nil
}

// pieces streams a reply's text: word by word, or for a trickled reply one
// word every Timing.Chunk until Trickle has passed or the client hangs up.
func (s *Server) pieces(ctx context.Context, r Reply, each func(string) error) error {
	if r.Spread > 0 {
		// Row by row, the rows' breaks kept, over Spread.
		rows := strings.SplitAfter(r.Text, "\n")
		gap := r.Spread / time.Duration(len(rows))
		for _, p := range rows {
			if err := each(p); err != nil {
				return err
			}
			select {
			case <-time.After(gap):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	if r.Trickle <= 0 {
		for _, p := range strings.SplitAfter(r.Text, " ") {
			if err := each(p); err != nil {
				return err
			}
		}
		return nil
	}
	chunk := s.timing.Chunk
	if chunk <= 0 {
		chunk = 250 * time.Millisecond
	}
	words := strings.Fields(r.Text)
	tick := time.NewTicker(chunk)
	defer tick.Stop()
	deadline := time.Now().Add(r.Trickle)
	for n := 0; time.Now().Before(deadline); n++ {
		if err := each(words[n%len(words)] + " "); err != nil {
			return err
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": msg, "type": "invalid_request_error", "status": http.StatusText(status)}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
