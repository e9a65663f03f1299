package run

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/session"
)

// The answer channel: a `mew run` listens on a unix socket in
// $MEW_HOME/run (0700) so `mew answer` can type into the agent's terminal.
// Typing happens here, inside the wrapper, right after re-reading the
// screen: only while the same prompt is still shown.

// maxKeys bounds what one answer may type.
const maxKeys = 64

// maxSocketPath is the smallest sun_path of the systems Mew runs on
// (macOS: 104 bytes with the terminating NUL).
const maxSocketPath = 103

// SocketDir is where the wrappers' sockets live.
func SocketDir(mewHome string) string { return filepath.Join(mewHome, "run") }

// Socket is the answer socket of the agent run as pid.
func Socket(mewHome string, pid int) string {
	return filepath.Join(SocketDir(mewHome), fmt.Sprintf("%d.sock", pid))
}

// Request is one call on the answer socket.
type Request struct {
	Op string `json:"op"` // "screen" | "type"
	// For "type": the prompt the answer was chosen for, and the keys.
	Rule   string `json:"rule,omitempty"`
	Prompt string `json:"prompt,omitempty"`
	Keys   string `json:"keys,omitempty"`
}

// Response answers a Request.
type Response struct {
	OK     bool                 `json:"ok"`
	Why    string               `json:"why,omitempty"`
	Screen *session.ScreenState `json:"screen,omitempty"`
	// For "screen": the frame the state was read from (package answer
	// checks it with the agent's rules, as it does a tmux capture).
	Rows       []string `json:"rows,omitempty"`
	Title      string   `json:"title,omitempty"`
	AgentState string   `json:"agent_state,omitempty"`
}

// ErrNotShown means the prompt an answer was chosen for is no longer on
// the screen: nothing was typed.
var ErrNotShown = errors.New("the prompt is no longer shown")

// startListener opens the answer socket once the agent's pid (its name)
// is known.
func (w *wrapper) startListener() {
	w.listenMu.Lock()
	defer w.listenMu.Unlock()
	if w.listener != nil || w.ctx == nil {
		return
	}
	pid := w.agent()
	if pid <= 0 {
		return
	}
	l, err := w.listen(w.ctx, pid)
	if err != nil {
		w.o.Log("answers cannot reach this session: %v", err)
		w.listener = failedListener{}
		return
	}
	w.listener = l
}

func (w *wrapper) closeListener() {
	w.listenMu.Lock()
	defer w.listenMu.Unlock()
	if w.listener != nil {
		w.listener.Close()
	}
}

// failedListener marks a socket that could not be opened (not retried).
type failedListener struct{ net.Listener }

func (failedListener) Close() error { return nil }

// listen serves the answer socket until ctx ends.
func (w *wrapper) listen(ctx context.Context, pid int) (net.Listener, error) {
	dir := SocketDir(w.o.Store.Home)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := Socket(w.o.Store.Home, pid)
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("socket path %s is too long for a unix socket", path)
	}
	os.Remove(path) // a stale socket of a reused pid
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	go w.guard(func() {
		defer os.Remove(path)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go w.guard(func() { w.serve(c) })
		}
	})
	return l, nil
}

func (w *wrapper) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	var req Request
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&req); err != nil {
		json.NewEncoder(c).Encode(Response{Why: "bad request"})
		return
	}
	json.NewEncoder(c).Encode(w.handle(req))
}

// handle reads the screen now and answers the request.
func (w *wrapper) handle(req Request) Response {
	w.feed() // everything the agent wrote so far
	st, frame, ok := w.observe()
	if !ok {
		return Response{Why: "the agent on this terminal is not known yet"}
	}
	switch req.Op {
	case "screen":
		return Response{OK: true, Screen: &st, Rows: frame.Rows, Title: frame.Title, AgentState: frame.AgentState}
	case "type":
		if len(req.Keys) == 0 || len(req.Keys) > maxKeys {
			return Response{Why: fmt.Sprintf("an answer types 1 to %d bytes", maxKeys)}
		}
		if st.State != session.ScreenBlocked || st.Background {
			return Response{Why: ErrNotShown.Error() + ": the screen shows no prompt", Screen: &st}
		}
		if st.Rule != req.Rule || st.Prompt != req.Prompt {
			return Response{Why: ErrNotShown.Error() + ": another prompt is shown", Screen: &st}
		}
		if _, err := w.master.Write([]byte(req.Keys)); err != nil {
			return Response{Why: "cannot type: " + err.Error()}
		}
		return Response{OK: true, Screen: &st}
	}
	return Response{Why: fmt.Sprintf("unknown op %q", req.Op)}
}

// Call sends one request to the wrapper listening at socket.
func Call(ctx context.Context, socket string, req Request) (Response, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return Response{}, err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return Response{}, err
	}
	var resp Response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		return Response{}, err
	}
	return resp, nil
}
