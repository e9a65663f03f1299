package fakeresponses

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mew-dev/mew/e2e/standin"
)

// maxBody bounds what the server reads of one request: Codex sends its whole
// instructions and tool schemas every time (a few hundred KB).
const maxBody = 32 << 20

// Logged is one request the server answered, for timelines and debugging.
type Logged struct {
	At         time.Time `json:"at"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Status     int       `json:"status"`
	Why        string    `json:"why,omitempty"`
	Reply      string    `json:"reply,omitempty"`
	Finished   bool      `json:"finished,omitempty"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
}

// Server is a running stand-in Responses API on 127.0.0.1.
type Server struct {
	URL    string // http://127.0.0.1:<port>/v1, what config.toml's base_url takes
	timing Timing
	http   *standin.Server
	log    standin.Log[Logged]
	ids    atomic.Int64
	extra  headerSet // SetHeaders
}

// Start listens on a random loopback port and serves until Close.
func Start(t Timing) (*Server, error) {
	s := &Server{timing: t}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", s.responses)
	mux.HandleFunc("/", s.notFound)
	srv, err := standin.Listen(mux)
	if err != nil {
		return nil, err
	}
	s.http, s.URL = srv, "http://"+srv.Addr+"/v1"
	return s, nil
}

// Close stops the server and ends streams in flight.
func (s *Server) Close() error { return s.http.Close() }

// Log returns a copy of the requests answered so far.
func (s *Server) Log() []Logged { return s.log.All() }

func (s *Server) record(l Logged) int { return s.log.Add(l) }

func (s *Server) finish(i int) {
	s.log.Update(i, func(l *Logged) { l.Finished, l.FinishedAt = true, time.Now() })
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		writeError(w, http.StatusBadRequest, "request body unreadable or too large")
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 400, Why: "bad json"})
		writeError(w, http.StatusBadRequest, "body is not a Responses API request: "+err.Error())
		return
	}
	reply := Decide(req, s.timing)
	status := http.StatusOK
	if reply.Kind == "error" {
		status = reply.Status
	}
	i := s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: status, Why: reply.Why, Reply: summary(reply)})
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if reply.Kind == "error" {
		writeError(w, reply.Status, reply.Text)
		s.finish(i)
		return
	}
	id := fmt.Sprintf("resp_e2e_%d", s.ids.Add(1))
	if err := s.stream(w, r.Context(), id, reply); err == nil {
		s.finish(i)
	}
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
	s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 404, Finished: true})
	writeError(w, http.StatusNotFound, fmt.Sprintf("the e2e stand-in API serves only POST /v1/responses, not %s %s", r.Method, r.URL.Path))
}

// stream writes reply as the Responses API's server-sent events: created,
// the output item (added, text deltas, done), completed.
func (s *Server) stream(w http.ResponseWriter, ctx context.Context, id string, reply Reply) error {
	fl, ok := w.(http.Flusher)
	if !ok {
		return fmt.Errorf("response writer cannot flush")
	}
	s.addHeaders(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(data map[string]any) error {
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b); err != nil {
			return err
		}
		fl.Flush()
		return ctx.Err()
	}
	if err := send(map[string]any{"type": "response.created", "response": map[string]any{"id": id}}); err != nil {
		return err
	}
	out := 0
	switch reply.Kind {
	case "call":
		item := map[string]any{"type": "function_call", "id": "fc_" + id, "name": reply.Call,
			"arguments": reply.Args, "call_id": "call_" + id}
		if err := send(map[string]any{"type": "response.output_item.done", "item": item}); err != nil {
			return err
		}
		out = tokens(len(reply.Args))
	default:
		msgID := "msg_" + id
		if err := send(map[string]any{"type": "response.output_item.added", "item": map[string]any{
			"type": "message", "role": "assistant", "id": msgID, "content": []any{}}}); err != nil {
			return err
		}
		text, err := s.deltas(send, ctx, reply)
		if err != nil {
			return err
		}
		if err := send(map[string]any{"type": "response.output_item.done", "item": map[string]any{
			"type": "message", "role": "assistant", "id": msgID,
			"content": []any{map[string]any{"type": "output_text", "text": text}}}}); err != nil {
			return err
		}
		out = tokens(len(text))
	}
	return send(map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": out, "total_tokens": 10 + out}}})
}

// deltas streams the reply's text and returns all of it. A trickled reply
// repeats its words, one every Timing.Chunk, until Trickle has passed or the
// client hangs up (Esc).
func (s *Server) deltas(send func(map[string]any) error, ctx context.Context, reply Reply) (string, error) {
	delta := func(p string) error {
		return send(map[string]any{"type": "response.output_text.delta", "delta": p})
	}
	if reply.Trickle <= 0 {
		for _, p := range strings.SplitAfter(reply.Text, " ") {
			if err := delta(p); err != nil {
				return "", err
			}
		}
		return reply.Text, nil
	}
	chunk := s.timing.Chunk
	if chunk <= 0 {
		chunk = 250 * time.Millisecond
	}
	words := strings.Fields(reply.Text)
	var all strings.Builder
	tick := time.NewTicker(chunk)
	defer tick.Stop()
	deadline := time.Now().Add(reply.Trickle)
	for n := 0; time.Now().Before(deadline); n++ {
		p := words[n%len(words)] + " "
		all.WriteString(p)
		if err := delta(p); err != nil {
			return "", err
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return all.String(), nil
}

func tokens(bytes int) int { return bytes/4 + 1 }

func summary(r Reply) string {
	switch {
	case r.Kind == "call":
		return "call " + r.Call
	case r.Kind == "error":
		return fmt.Sprintf("HTTP %d", r.Status)
	case r.Trickle > 0:
		return "slow text"
	}
	return "text " + r.Text
}

func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"type": "server_error", "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
