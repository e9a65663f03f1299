package fakellm

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// geminiRequest is the part of a generateContent request the script reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string    `json:"text"`
			FunctionResponse *struct{} `json:"functionResponse"`
			FunctionCall     *struct{} `json:"functionCall"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// geminiTurn finds the newest marked user text and counts the function
// responses after it.
func geminiTurn(req geminiRequest) turn {
	c := turn{tools: len(req.Tools) > 0}
	for i := len(req.Contents) - 1; i >= 0; i-- {
		for j := len(req.Contents[i].Parts) - 1; j >= 0; j-- {
			p := req.Contents[i].Parts[j]
			if p.FunctionResponse != nil {
				c.step++
				continue
			}
			if req.Contents[i].Role == "user" {
				if sc := marked(p.Text); sc != "" {
					c.scenario = sc
					return c
				}
			}
		}
	}
	return c
}

// gemini serves {model}:streamGenerateContent (SSE), :generateContent and
// :countTokens.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	var req geminiRequest
	if !readBody(w, r, &req) {
		return
	}
	if method == "countTokens" {
		writeJSON(w, map[string]any{"totalTokens": 10})
		return
	}
	reply := s.reply("gemini", r.URL.Path, geminiTurn(req))
	if reply.Kind == "error" {
		if reply.RetryAfter > 0 {
			w.Header().Set("retry-after-ms", strconv.FormatInt(reply.RetryAfter.Milliseconds(), 10))
		}
		writeError(w, reply.Status, reply.Text)
		return
	}
	usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	response := func(parts []any, finish string) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		out := map[string]any{"candidates": []any{cand}, "modelVersion": model}
		if finish != "" {
			cand["finishReason"] = finish
			out["usageMetadata"] = usage
		}
		return out
	}
	call := []any{map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
		"args": map[string]any{"command": ShellCommand, "description": "Create a marker file"}}}}
	if reply.Kind == "ask" {
		call = []any{map[string]any{"functionCall": geminiAskCall(req)}}
	}
	if reply.Kind == "write" || reply.Kind == "ask" && reply.Text == PlanText {
		call = []any{map[string]any{"functionCall": geminiPlanCall(req, reply.Kind)}}
	}
	calls := reply.Kind == "call" || reply.Kind == "ask" || reply.Kind == "write"
	if method != "streamGenerateContent" {
		if calls {
			writeJSON(w, response(call, "STOP"))
		} else {
			writeJSON(w, response([]any{map[string]any{"text": reply.Text}}, "STOP"))
		}
		return
	}
	send, err := sse(w, r.Context())
	if err != nil {
		return
	}
	if calls {
		send(response(call, "STOP"))
		return
	}
	if s.pieces(r.Context(), reply, func(p string) error { return send(response([]any{map[string]any{"text": p}}, "")) }) != nil {
		return
	}
	send(response([]any{map[string]any{"text": ""}}, "STOP"))
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.Encode(v)
}
