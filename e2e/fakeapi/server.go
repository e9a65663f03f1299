package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mew-dev/mew/e2e/standin"
)

// maxBody bounds what the server reads of one request: Claude Code's
// requests carry the whole system prompt and tool schemas (a few hundred KB).
const maxBody = 32 << 20

// Logged is one request the server answered, for timelines and debugging.
type Logged struct {
	At       time.Time `json:"at"`
	Method   string    `json:"method"`
	Path     string    `json:"path"`
	Status   int       `json:"status"`
	Model    string    `json:"model,omitempty"`
	Stream   bool      `json:"stream,omitempty"`
	Why      string    `json:"why,omitempty"` // scenario/step, "side", ...
	Reply    string    `json:"reply,omitempty"`
	Finished bool      `json:"finished,omitempty"` // the whole reply was written
	// FinishedAt is when the last byte of the reply was written.
	FinishedAt time.Time `json:"finished_at,omitempty"`
}

// Server is a running stand-in API on 127.0.0.1.
type Server struct {
	URL    string // http://127.0.0.1:<port>
	timing Timing
	http   *standin.Server
	log    standin.Log[Logged]
	ids    atomic.Int64

	mu      sync.Mutex
	dump    func(path string, body []byte) // optional: sees every request body
	headers map[string]string              // sent with every reply (SetHeaders)
}

// Start listens on a random loopback port and serves until Close.
func Start(t Timing) (*Server, error) {
	s := &Server{timing: t}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.messages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.countTokens)
	mux.HandleFunc("/", s.notFound)
	srv, err := standin.Listen(mux)
	if err != nil {
		return nil, err
	}
	s.http, s.URL = srv, "http://"+srv.Addr
	return s, nil
}

// OnRequest registers f to see every request's path and body (for recording).
func (s *Server) OnRequest(f func(path string, body []byte)) {
	s.mu.Lock()
	s.dump = f
	s.mu.Unlock()
}

// Close stops the server and ends streams in flight.
func (s *Server) Close() error { return s.http.Close() }

// Log returns a copy of the requests answered so far.
func (s *Server) Log() []Logged { return s.log.All() }

func (s *Server) record(l Logged) int { return s.log.Add(l) }

func (s *Server) finish(i int) {
	s.log.Update(i, func(l *Logged) { l.Finished, l.FinishedAt = true, time.Now() })
}

func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "request body unreadable or too large")
		return nil, false
	}
	s.mu.Lock()
	dump := s.dump
	s.mu.Unlock()
	if dump != nil {
		dump(r.URL.Path, body)
	}
	return body, true
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 400, Why: "bad json"})
		writeError(w, http.StatusBadRequest, "invalid_request_error", "body is not a Messages API request: "+err.Error())
		return
	}
	reply := Decide(req, s.timing)
	i := s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 200, Model: req.Model,
		Stream: req.Stream, Why: reply.Why, Reply: summary(reply)})
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	id := fmt.Sprintf("msg_e2e_%d", s.ids.Add(1))
	s.addHeaders(w)
	var err error
	switch {
	case reply.Kind == "error":
		s.log.Update(i, func(l *Logged) { l.Status = reply.Status })
		err = writeError(w, reply.Status, "invalid_request_error", reply.Text)
	case req.Stream:
		err = s.stream(w, r.Context(), id, req, reply)
	default:
		err = writeJSON(w, http.StatusOK, wholeMessage(id, req, reply))
	}
	if err == nil {
		s.finish(i)
	}
}

func (s *Server) countTokens(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 200, Finished: true})
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": estimateTokens(len(body))})
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
	s.record(Logged{At: time.Now(), Method: r.Method, Path: r.URL.Path, Status: 404, Finished: true})
	writeError(w, http.StatusNotFound, "not_found_error",
		fmt.Sprintf("the e2e stand-in API serves only POST /v1/messages and /v1/messages/count_tokens, not %s %s", r.Method, r.URL.Path))
}

// stream writes reply as the Messages API's server-sent events.
func (s *Server) stream(w http.ResponseWriter, ctx context.Context, id string, req Request, reply Reply) error {
	fl, ok := w.(http.Flusher)
	if !ok {
		return fmt.Errorf("response writer cannot flush")
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("request-id", "req_"+id)
	w.WriteHeader(http.StatusOK)
	in := estimateTokens(len(req.Messages) * 400)
	out := 0
	send := func(event string, data any) error {
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return err
		}
		fl.Flush()
		return ctx.Err()
	}
	msg := map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": usage(in, 1),
	}
	if err := send("message_start", map[string]any{"type": "message_start", "message": msg}); err != nil {
		return err
	}
	if err := send("ping", map[string]any{"type": "ping"}); err != nil {
		return err
	}
	index := 0
	if reply.Text != "" {
		if err := send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}}); err != nil {
			return err
		}
		pieces := splitText(reply.Text)
		if reply.Trickle > 0 {
			if err := s.trickle(send, ctx, index, reply); err != nil {
				return err
			}
		} else {
			for _, p := range pieces {
				if err := send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
					"delta": map[string]any{"type": "text_delta", "text": p}}); err != nil {
					return err
				}
			}
		}
		out += estimateTokens(len(reply.Text))
		if err := send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}); err != nil {
			return err
		}
		index++
	}
	stop := "end_turn"
	if reply.Kind == "tool_use" {
		stop = "tool_use"
		input, err := json.Marshal(reply.Input)
		if err != nil {
			return err
		}
		if err := send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": reply.Tool, "input": map[string]any{}}}); err != nil {
			return err
		}
		// Two pieces, as a real stream splits partial JSON anywhere.
		half := len(input) / 2
		for _, part := range []string{string(input[:half]), string(input[half:])} {
			if err := send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": part}}); err != nil {
				return err
			}
		}
		if err := send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}); err != nil {
			return err
		}
		out += estimateTokens(len(input))
	}
	if err := send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": usage(in, out)}); err != nil {
		return err
	}
	return send("message_stop", map[string]any{"type": "message_stop"})
}

// trickle sends the slow reply: the text again and again, one piece per
// SlowChunk, until Trickle has passed or the client hangs up (Esc).
func (s *Server) trickle(send func(string, any) error, ctx context.Context, index int, reply Reply) error {
	chunk := s.timing.SlowChunk
	if chunk <= 0 {
		chunk = 250 * time.Millisecond
	}
	deadline := time.Now().Add(reply.Trickle)
	tick := time.NewTicker(chunk)
	defer tick.Stop()
	words := strings.Fields(reply.Text)
	for n := 0; time.Now().Before(deadline); n++ {
		if err := send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
			"delta": map[string]any{"type": "text_delta", "text": words[n%len(words)] + " "}}); err != nil {
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

// wholeMessage is the non-streaming form of reply.
func wholeMessage(id string, req Request, reply Reply) map[string]any {
	content := []any{}
	if reply.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": reply.Text})
	}
	stop := "end_turn"
	if reply.Kind == "tool_use" {
		stop = "tool_use"
		content = append(content, map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": reply.Tool, "input": reply.Input})
	}
	return map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": content,
		"stop_reason": stop, "stop_sequence": nil,
		"usage": usage(estimateTokens(len(req.Messages)*400), estimateTokens(len(reply.Text))+1),
	}
}

func usage(in, out int) map[string]any {
	return map[string]any{
		"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
		"service_tier": "standard",
	}
}

// estimateTokens is the usual four bytes a token; the CLI only displays it.
func estimateTokens(bytes int) int { return bytes/4 + 1 }

// splitText cuts text into a few deltas, as a real stream would.
func splitText(text string) []string {
	var out []string
	for len(text) > 12 {
		cut := strings.IndexByte(text[8:], ' ')
		if cut < 0 {
			break
		}
		out = append(out, text[:8+cut+1])
		text = text[8+cut+1:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}

func summary(r Reply) string {
	if r.Kind == "error" {
		return fmt.Sprintf("error %d", r.Status)
	}
	if r.Kind == "tool_use" {
		return "tool_use " + r.Tool
	}
	if r.Trickle > 0 {
		return "slow text"
	}
	return "text " + r.Text
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(b)
	return err
}

func writeError(w http.ResponseWriter, status int, kind, msg string) error {
	return writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}})
}
