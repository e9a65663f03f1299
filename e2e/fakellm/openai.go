package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// chatRequest is the part of a chat completions request the script reads.
type chatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type chatMessage struct {
	Role string `json:"role"`
	// Content is a string or a list of parts ({"type":"text","text":…}).
	Content json.RawMessage `json:"content"`
}

func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(m.Content, &parts)
	for _, p := range parts {
		s += p.Text + "\n"
	}
	return s
}

// chatTurn finds the newest marked user message and counts the tool
// results after it.
func chatTurn(req chatRequest) turn {
	c := turn{tools: len(req.Tools) > 0}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role == "tool" {
			if c.step == 0 {
				c.result = m.text()
			}
			c.step++
			continue
		}
		if m.Role == "user" {
			if sc := marked(m.text()); sc != "" {
				c.scenario = sc
				return c
			}
		}
	}
	return c
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if !readBody(w, r, &req) {
		return
	}
	reply := s.reply("openai", r.URL.Path, chatTurn(req))
	if reply.Kind == "error" {
		if reply.RetryAfter > 0 {
			w.Header().Set("retry-after-ms", strconv.FormatInt(reply.RetryAfter.Milliseconds(), 10))
		}
		writeError(w, reply.Status, reply.Text)
		return
	}
	id := fmt.Sprintf("chatcmpl-e2e-%d", time.Now().UnixNano())
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": reply.Text}
		finish := "stop"
		if reply.Kind == "call" || reply.Kind == "ask" {
			msg, finish = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{callFor(id, req, reply)}}, "tool_calls"
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
		return
	}
	send, err := sse(w, r.Context())
	if err != nil {
		return
	}
	if send(chunk(map[string]any{"role": "assistant", "content": ""}, nil)) != nil {
		return
	}
	finish := "stop"
	if reply.Kind == "call" || reply.Kind == "ask" {
		finish = "tool_calls"
		if send(chunk(map[string]any{"tool_calls": []any{callFor(id, req, reply)}}, nil)) != nil {
			return
		}
	} else if s.pieces(r.Context(), reply, func(p string) error { return send(chunk(map[string]any{"content": p}, nil)) }) != nil {
		return
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if send(last) != nil {
		return
	}
	send("[DONE]")
}

// toolCall is the agent's shell tool running command: OpenCode's (and
// pi's) bash, run_shell_command where the request offers it (Qwen Code, a
// Gemini CLI fork speaking chat completions), Continue's Bash, or
// run_commands (Cline 3.x: a list of commands, the only argument its
// schema allows).
func toolCall(id string, req chatRequest, command string) map[string]any {
	name := "bash"
	args := map[string]any{"command": command, "description": "Create a marker file"}
	for _, t := range req.Tools {
		switch t.Function.Name {
		case "run_shell_command":
			name, args["is_background"] = t.Function.Name, false
		case "Bash":
			name, args = t.Function.Name, map[string]any{"command": command}
		case "run_commands":
			name, args = t.Function.Name, map[string]any{"commands": []string{command}}
		}
	}
	b, _ := json.Marshal(args)
	return map[string]any{"index": 0, "id": "call_" + id, "type": "function",
		"function": map[string]any{"name": name, "arguments": string(b)}}
}
