// Package fakeamp is a stand-in of Amp's own server on 127.0.0.1, for
// driving the real Amp CLI (0.0.1790142911-g7618fb) in the end-to-end
// suite. Amp's server runs the agent loop; the CLI renders it and executes
// tools over a thread WebSocket speaking JSON-RPC 2.0. Ported from
// ../shared/fixtures/amp-0.0.1790142911/fake_amp.py (its README has the
// protocol as learned).
//
// The last user message picks the turn: "mew-bash" asks for one
// shell_command (`rm -rf mew-probe-dir && echo mew-bash-ran`, which Amp's
// built-in permission rules ask about); "mew-slow" streams for 8 s;
// "mew-quote" replies with Amp's approval dialog quoted (Quote);
// "mew-error" fails the turn (agent.end "error" to the plugins, then idle:
// how Amp's real server reports a failed turn to the CLI is not known, so
// the CLI draws nothing of it); any other text is a plain reply. agent.start and agent.end reach the CLI's
// plugins as requests from the server.
package fakeamp

import (
	"bufio"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Command is the shell command of the "mew-bash" turn.
const Command = "rm -rf mew-probe-dir && echo mew-bash-ran"

// Quote is the "mew-quote" turn's reply: the rows of Amp's approval
// dialog, as a model quoting them would write them.
const Quote = "Amp asks like this:\n\n" +
	"╭─ Approval Required ──────────────────────────╮\n" +
	"│ ‣ Allow Once                                 │\n" +
	"│   Reject with feedback                       │\n" +
	"╰────── ↑/↓/j/k move · Enter select · Esc cancel ─╯\n\n" +
	"Nothing is waiting for you here."

// errFailed ends a "mew-error" turn.
var errFailed = errors.New("the turn failed")

// Event is one thing the server did or saw, for the test's timeline.
type Event struct {
	At   time.Time
	What string // "state working", "plugin agent.start", "cancel", …
}

// Server is a running stand-in.
type Server struct {
	URL string // AMP_URL, ending in "/"
	// Delay is the pause between a turn's steps.
	Delay time.Duration

	ln      net.Listener
	srv     *http.Server
	mu      sync.Mutex
	threads map[string]*thread
	events  []Event
	hookN   int
	hooks   map[string]chan json.RawMessage
}

// Start serves on a free loopback port.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/", Delay: 400 * time.Millisecond, ln: ln,
		threads: map[string]*thread{}, hooks: map[string]chan json.RawMessage{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and every connection.
func (s *Server) Close() error {
	s.mu.Lock()
	for _, th := range s.threads {
		for _, c := range th.conns {
			c.conn.Close()
		}
	}
	s.mu.Unlock()
	return s.srv.Close()
}

// Events is what happened so far.
func (s *Server) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Event(nil), s.events...)
}

func (s *Server) note(format string, args ...any) {
	s.mu.Lock()
	s.events = append(s.events, Event{At: time.Now(), What: fmt.Sprintf(format, args...)})
	s.mu.Unlock()
}

var user = map[string]any{
	"id": "user-mew-1", "username": "mew", "email": "mew@example.invalid", "emailVerified": true,
	"displayName": "Mew Tester", "avatarURL": nil, "features": []any{}, "team": nil, "siteAdmin": false,
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		s.serveWS(w, r)
		return
	}
	if r.Method != http.MethodPost && r.Method != http.MethodPut {
		writeJSON(w, 404, map[string]any{"error": "not found"})
		return
	}
	var body map[string]any
	var rd io.Reader = io.LimitReader(r.Body, 16<<20)
	if r.Header.Get("Content-Encoding") == "gzip" {
		if z, err := gzip.NewReader(rd); err == nil {
			rd = z
		}
	}
	json.NewDecoder(rd).Decode(&body)
	switch r.URL.Path {
	case "/api/internal":
		method, _ := body["method"].(string)
		params, _ := body["params"].(map[string]any)
		res, errCode := s.internal(method, params)
		if errCode != "" {
			writeJSON(w, 200, map[string]any{"ok": false, "error": map[string]any{"code": errCode, "message": errCode}})
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true, "result": res})
	case "/api/user-actor-credentials":
		writeJSON(w, 200, map[string]any{"userId": user["id"], "wsToken": "ws-user-token", "poolName": "default"})
	case "/api/thread-actors":
		tid, _ := body["threadId"].(string)
		th := s.thread(tid)
		mode, _ := body["agentMode"].(string)
		if mode == "" {
			mode = "medium"
		}
		writeJSON(w, 200, map[string]any{"threadId": th.id, "wsToken": "ws-thread-token", "usesDtw": true,
			"usesThreadActors": true, "executorType": "local-client", "ownerUserId": user["id"],
			"threadVersion": th.version, "poolName": "default", "agentMode": mode})
	case "/api/telemetry":
		writeJSON(w, 200, map[string]any{"ok": true})
	default:
		writeJSON(w, 404, map[string]any{"error": "not found"})
	}
}

func (s *Server) internal(method string, params map[string]any) (any, string) {
	switch method {
	case "getUserInfo":
		return user, ""
	case "listAgentModes", "loadPlugins", "notices":
		return []any{}, ""
	case "loadSkills", "loadAgents":
		return map[string]any{"sources": []any{}}, ""
	case "listAutomations", "listGitHubAutomations":
		// {} makes a TUI widget throw and repaints stop.
		return map[string]any{"automations": []any{}}, ""
	case "getThreadTail", "getThreadInitialTranscriptPage", "getThreadMessagesPage":
		tid, _ := params["thread"].(string)
		s.mu.Lock()
		th := s.threads[tid]
		s.mu.Unlock()
		if th == nil {
			return nil, "thread-not-found"
		}
		th.mu.Lock()
		defer th.mu.Unlock()
		msgs := append([]map[string]any{}, th.messages...)
		if method == "getThreadMessagesPage" {
			return map[string]any{"messages": msgs, "nextMessageIndex": nil}, ""
		}
		r := map[string]any{"thread": map[string]any{"id": th.id, "updatedAt": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
			"creatorUserID": user["id"], "data": map[string]any{"id": th.id, "v": th.version, "created": th.created,
				"agentMode": "medium", "meta": map[string]any{"usesThreadActors": true}, "messages": msgs}},
			"messages": msgs, "hasMoreBefore": false}
		if method == "getThreadInitialTranscriptPage" {
			r["firstMessageIndex"], r["firstMessageID"] = nil, nil
			if len(msgs) > 0 {
				r["firstMessageIndex"], r["firstMessageID"] = 0, msgs[0]["messageId"]
			}
		}
		return r, ""
	case "getThread", "getThreadProject":
		return nil, "thread-not-found"
	case "newsCard", "splashDispatch":
		return nil, ""
	case "threadDisplayCostInfo":
		return map[string]any{"title": "Thread cost", "totalCostUSD": 0}, ""
	}
	return map[string]any{}, ""
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(code)
	w.Write(b)
}

// thread is one Amp thread and its connections.
type thread struct {
	id       string
	created  int64
	mu       sync.Mutex
	version  int
	messages []map[string]any
	conns    []*wsConn
	executor *wsConn
	state    string
	pending  map[string]chan map[string]any
	cancel   chan struct{} // closed by client_cancel during a turn
	turnText string
	turnID   string
}

func (s *Server) thread(id string) *thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	if th := s.threads[id]; th != nil && id != "" {
		return th
	}
	if id == "" {
		id = "T-" + uuid()
	}
	th := &thread{id: id, created: time.Now().UnixMilli(), state: "idle", pending: map[string]chan map[string]any{}}
	s.threads[id] = th
	return th
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func rid(prefix string) string {
	var b [11]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// ---- WebSocket (RFC 6455, the little Amp's CLI uses) ----

type wsConn struct {
	conn net.Conn
	br   *bufio.Reader
	wmu  sync.Mutex
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	h, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijack", 500)
		return
	}
	key := r.Header.Get("Sec-WebSocket-Key")
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	var protos []string
	for _, p := range strings.Split(r.Header.Get("Sec-WebSocket-Protocol"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			protos = append(protos, p)
		}
	}
	conn, brw, err := h.Hijack()
	if err != nil {
		return
	}
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
		base64.StdEncoding.EncodeToString(sum[:]) + "\r\n"
	if len(protos) > 0 {
		resp += "Sec-WebSocket-Protocol: " + protos[0] + "\r\n"
	}
	if _, err := conn.Write([]byte(resp + "\r\n")); err != nil {
		conn.Close()
		return
	}
	c := &wsConn{conn: conn, br: brw.Reader}
	defer conn.Close()
	if strings.Contains(r.URL.Path, "/userActor/") {
		// RivetKit's own protocol for the user actor: not implemented; kept
		// open and silent (Amp retries it every 10 s; nothing visible breaks).
		c.loop(func([]byte) {})
		return
	}
	q, _ := url.ParseQuery(r.URL.RawQuery)
	th := s.thread(q.Get("rvt-key"))
	th.mu.Lock()
	th.conns = append(th.conns, c)
	state := th.state
	th.mu.Unlock()
	s.notify(c, "observers", map[string]any{"count": 1, "observers": []any{map[string]any{"userId": user["id"], "name": user["displayName"]}},
		"hasExecutor": false, "executorType": "local-client"})
	s.notify(c, "agent_state", map[string]any{"state": state})
	c.loop(func(payload []byte) { s.onMessage(th, c, payload) })
	th.mu.Lock()
	for i, x := range th.conns {
		if x == c {
			th.conns = append(th.conns[:i], th.conns[i+1:]...)
			break
		}
	}
	if th.executor == c {
		th.executor = nil
	}
	th.mu.Unlock()
}

func (c *wsConn) frame(op byte, data []byte) error {
	hdr := []byte{0x80 | op}
	switch n := len(data); {
	case n < 126:
		hdr = append(hdr, byte(n))
	case n < 65536:
		hdr = append(hdr, 126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err := c.conn.Write(append(hdr, data...))
	return err
}

func (c *wsConn) loop(on func([]byte)) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return
		}
		op, n := h[0]&0x0f, uint64(h[1]&0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c.br, b[:]); err != nil {
				return
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c.br, b[:]); err != nil {
				return
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if n > 16<<20 {
			return
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(c.br, mask[:]); err != nil {
				return
			}
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(c.br, data); err != nil {
			return
		}
		if h[1]&0x80 != 0 {
			for i := range data {
				data[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			c.frame(0x8, data[:min(2, len(data))])
			return
		case 0x9:
			c.frame(0xA, data)
			continue
		case 0xA:
			continue
		}
		msg = append(msg, data...)
		if h[0]&0x80 == 0 {
			continue
		}
		payload := msg
		msg = nil
		if string(payload) == "ping" {
			c.frame(0x1, []byte("pong"))
			continue
		}
		on(payload)
	}
}

// ---- the thread protocol ----

func (s *Server) notify(c *wsConn, method string, params map[string]any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	c.frame(0x1, b)
}

func (s *Server) broadcast(th *thread, method string, params map[string]any) {
	th.mu.Lock()
	conns := append([]*wsConn(nil), th.conns...)
	th.mu.Unlock()
	for _, c := range conns {
		s.notify(c, method, params)
	}
}

func (s *Server) setState(th *thread, state string, extra map[string]any) {
	th.mu.Lock()
	th.state = state
	th.mu.Unlock()
	p := map[string]any{"state": state}
	for k, v := range extra {
		p[k] = v
	}
	s.note("state %s", state)
	s.broadcast(th, "agent_state", p)
}

func (s *Server) addMessage(th *thread, m map[string]any) {
	m["threadId"] = th.id
	m["createdAt"] = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	th.mu.Lock()
	th.messages = append(th.messages, m)
	th.version++
	seq := th.version
	th.mu.Unlock()
	s.broadcast(th, "message_added", map[string]any{"message": m, "seq": seq})
}

type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (s *Server) onMessage(th *thread, c *wsConn, payload []byte) {
	var m rpc
	if json.Unmarshal(payload, &m) != nil || m.Method == "" {
		return // a response to something the server sent, or not JSON
	}
	if len(m.ID) > 0 && string(m.ID) != "null" {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
		c.frame(0x1, b)
	}
	var p map[string]any
	json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "executor_connect":
		th.mu.Lock()
		th.executor = c
		state := th.state
		th.mu.Unlock()
		s.notify(c, "executor_connected", map[string]any{"executorId": rid("E-"), "registeredToolCount": 0, "guidanceInventory": []any{}})
		s.broadcast(th, "observers", map[string]any{"count": 1, "observers": []any{map[string]any{"userId": user["id"], "name": user["displayName"]}},
			"hasExecutor": true, "executorType": "local-client"})
		s.notify(c, "agent_state", map[string]any{"state": state})
	case "client_resume":
		th.mu.Lock()
		state := th.state
		th.mu.Unlock()
		s.notify(c, "agent_state", map[string]any{"state": state})
	case "client_append_user_msg":
		go s.runTurn(th, p)
	case "executor_tool_result":
		tc, _ := p["toolCallId"].(string)
		s.notify(c, "executor_tool_result_ack", map[string]any{"toolCallId": tc})
		th.mu.Lock()
		ch := th.pending[tc]
		th.mu.Unlock()
		if ch != nil {
			run, _ := p["run"].(map[string]any)
			select {
			case ch <- run:
			default:
			}
		}
	case "executor_plugin_message":
		msg, _ := p["message"].(map[string]any)
		if typ, _ := msg["type"].(string); typ == "response" {
			id, _ := msg["id"].(string)
			s.mu.Lock()
			ch := s.hooks[id]
			delete(s.hooks, id)
			s.mu.Unlock()
			if ch != nil {
				b, _ := json.Marshal(msg["result"])
				ch <- b
			}
		}
		// A ui.* request (the permissions plugin's dialog) is shown by the
		// client that raised it: nothing to relay with one client.
	case "client_cancel":
		s.note("cancel")
		th.mu.Lock()
		if th.cancel != nil {
			select {
			case <-th.cancel:
			default:
				close(th.cancel)
			}
		}
		th.mu.Unlock()
	}
}

// pluginHook raises a server-side plugin event (agent.start, agent.end)
// in the executor's plugins and waits (at most 5 s) for their answer.
func (s *Server) pluginHook(th *thread, method string, event map[string]any) {
	th.mu.Lock()
	ex := th.executor
	th.mu.Unlock()
	if ex == nil {
		return
	}
	s.mu.Lock()
	s.hookN++
	id := fmt.Sprintf("srv-%s-%d", method, s.hookN)
	ch := make(chan json.RawMessage, 1)
	s.hooks[id] = ch
	s.mu.Unlock()
	s.note("plugin %s", method)
	s.notify(ex, "plugin_message", map[string]any{"message": map[string]any{"type": "request", "id": id, "method": method,
		"params": map[string]any{"event": event}}})
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		s.mu.Lock()
		delete(s.hooks, id)
		s.mu.Unlock()
	}
}

var usage = map[string]any{"model": "claude-fake", "maxInputTokens": 200000, "inputTokens": 10, "outputTokens": 5,
	"cacheCreationInputTokens": 0, "cacheReadInputTokens": 0, "totalInputTokens": 10}

var errCancelled = errors.New("cancelled")

// pause waits d, or returns errCancelled when the turn is cancelled.
func pause(th *thread, d time.Duration) error {
	th.mu.Lock()
	c := th.cancel
	th.mu.Unlock()
	select {
	case <-c:
		return errCancelled
	case <-time.After(d):
		return nil
	}
}

// stream streams an assistant message as snapshots, then adds it.
func (s *Server) stream(th *thread, blocks []map[string]any, slow time.Duration) (string, error) {
	mid := rid("M-")
	s.setState(th, "streaming", map[string]any{"messageId": mid})
	var text string
	for _, b := range blocks {
		if b["type"] == "text" {
			text += b["text"].(string)
		}
	}
	const steps = 4
	step := max(s.Delay/steps, slow/steps)
	for i := 1; i <= steps; i++ {
		part := text[:max(1, len(text)*i/steps)]
		state := "generating"
		if i == 1 {
			state = "start"
		}
		s.broadcast(th, "delta", map[string]any{"messageId": mid, "role": "assistant", "contentMode": "snapshot", "state": state,
			"blocks": []any{map[string]any{"type": "text", "text": part, "blockState": "streaming"}}})
		if err := pause(th, step); err != nil {
			return "", err
		}
	}
	final := make([]any, 0, len(blocks))
	for _, b := range blocks {
		c := map[string]any{"blockState": "complete"}
		for k, v := range b {
			c[k] = v
		}
		final = append(final, c)
	}
	s.broadcast(th, "delta", map[string]any{"messageId": mid, "role": "assistant", "blocks": final, "contentMode": "snapshot",
		"state": "complete", "usage": usage})
	s.addMessage(th, map[string]any{"role": "assistant", "content": final, "messageId": mid, "state": map[string]any{"type": "complete"}, "usage": usage})
	return mid, nil
}

func userText(content any) string {
	var out []string
	list, _ := content.([]any)
	for _, b := range list {
		if m, ok := b.(map[string]any); ok && m["type"] == "text" {
			t, _ := m["text"].(string)
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}

func (s *Server) runTurn(th *thread, p map[string]any) {
	th.mu.Lock()
	th.cancel = make(chan struct{})
	th.mu.Unlock()
	mid, _ := p["messageId"].(string)
	if mid == "" {
		mid = rid("M-")
	}
	umsg := map[string]any{"role": "user", "content": p["content"], "messageId": mid, "meta": map[string]any{"sentAt": time.Now().UnixMilli()}}
	if mode, ok := p["agentMode"]; ok {
		umsg["agentMode"] = mode
	}
	s.addMessage(th, umsg)
	s.setState(th, "working", nil)
	text := userText(p["content"])
	th.mu.Lock()
	th.turnText, th.turnID = text, mid
	th.mu.Unlock()
	s.note("turn %q", text)
	s.pluginHook(th, "agent.start", map[string]any{"thread": map[string]any{"id": th.id}, "message": text, "id": mid})
	status := "done"
	if err := s.turn(th, text); errors.Is(err, errFailed) {
		status = "error"
		s.note("failed")
	} else if err != nil {
		status = "cancelled"
		s.broadcast(th, "cancelled", map[string]any{"seq": th.version})
	}
	s.pluginHook(th, "agent.end", map[string]any{"thread": map[string]any{"id": th.id}, "message": text, "id": mid, "status": status, "messages": []any{}})
	s.setState(th, "idle", nil)
}

func (s *Server) turn(th *thread, text string) error {
	if err := pause(th, s.Delay); err != nil {
		return err
	}
	var slow time.Duration
	if strings.Contains(text, "mew-slow") {
		slow = 8 * time.Second
	}
	switch {
	case strings.Contains(text, "mew-error"):
		return errFailed
	case strings.Contains(text, "mew-quote"):
		_, err := s.stream(th, []map[string]any{{"type": "text", "text": Quote}}, 0)
		return err
	case !strings.Contains(text, "mew-bash"):
		_, err := s.stream(th, []map[string]any{{"type": "text", "text": "Hello from the fake Amp server. This is a plain reply."}}, slow)
		return err
	}
	tu := rid("TU-")
	args := map[string]any{"command": Command}
	mid, err := s.stream(th, []map[string]any{{"type": "text", "text": "I will run a shell command."},
		{"type": "tool_use", "id": tu, "name": "shell_command", "input": args, "complete": true}}, slow)
	if err != nil {
		return err
	}
	s.setState(th, "tool_use", map[string]any{"messageId": mid})
	ch := make(chan map[string]any, 1)
	th.mu.Lock()
	th.pending[tu] = ch
	ex := th.executor
	cancel := th.cancel
	th.mu.Unlock()
	defer func() {
		th.mu.Lock()
		delete(th.pending, tu)
		th.mu.Unlock()
	}()
	if ex == nil {
		return errors.New("no executor")
	}
	s.setState(th, "running_tools", map[string]any{"messageId": mid})
	s.notify(ex, "tool_lease", map[string]any{"toolCallId": tu, "toolName": "shell_command", "args": args, "messageId": mid})
	var run map[string]any
	select {
	case run = <-ch:
	case <-cancel:
		run = map[string]any{"status": "cancelled"}
	}
	s.addMessage(th, map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "toolUseID": tu, "run": run}}, "messageId": rid("M-")})
	select {
	case <-cancel:
		return errCancelled
	default:
	}
	s.setState(th, "working", nil)
	if err := pause(th, s.Delay); err != nil {
		return err
	}
	reply := "Done."
	st, _ := run["status"].(string)
	if res, _ := run["result"].(string); st == "done" && strings.HasPrefix(res, "Tool rejected") {
		reply = "The command was rejected."
		s.note("rejected")
	} else if st != "done" {
		reply = fmt.Sprintf("The command did not run (%s).", st)
	} else {
		s.note("tool ran")
	}
	_, err = s.stream(th, []map[string]any{{"type": "text", "text": reply}}, 0)
	return err
}
