package run

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// The answer channel: a `mew run` listens on a unix socket in
// $MEW_HOME/run (0700) so `mew answer` can type into the agent's terminal.
// Typing happens here, inside the wrapper, right after re-reading the
// screen: only while the same prompt is still shown. Any process of the
// person can connect (the agent's own children too), so the client names
// a choice of the shown prompt, never keys: the keys come from the
// agent's rules and the screen read here. And the client is given the
// screen's state (what the store holds), not its rows.

// maxKeys bounds what one answer may type.
const maxKeys = 64

// maxRequest bounds one request; a longer one drops the connection.
const maxRequest = 8 << 10

// maxConns bounds the connections served at once; more are closed on
// accept (idle connections must not use up the wrapper's descriptors).
const maxConns = 16

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
	// For "type": the prompt the answer was chosen for, and its choice
	// (its number and label as drawn).
	Rule   string          `json:"rule,omitempty"`
	Prompt string          `json:"prompt,omitempty"`
	Choice *session.Choice `json:"choice,omitempty"`
}

// Response answers a Request.
type Response struct {
	OK     bool                 `json:"ok"`
	Why    string               `json:"why,omitempty"`
	Screen *session.ScreenState `json:"screen,omitempty"`
	// Keys: for "screen", the keys each choice of the prompt shown types
	// (the agent's rules say); for "type", the keys typed.
	Keys []ChoiceKeys `json:"keys,omitempty"`
}

// ChoiceKeys are the keys that answer one choice. (Not an embedded
// session.Choice: its generated MarshalJSON would be promoted and drop Keys.)
type ChoiceKeys struct {
	N     int      `json:"n"`
	Label string   `json:"label"`
	Keys  []string `json:"keys"`
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
		w.acceptLoop(ctx, l)
	})
	return l, nil
}

// acceptLoop serves l until ctx ends or l is closed. An accept error
// (out of descriptors: EMFILE) is waited out, never the socket's end.
func (w *wrapper) acceptLoop(ctx context.Context, l net.Listener) {
	slots := make(chan struct{}, maxConns)
	backoff := time.Duration(0)
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || ctx.Err() != nil {
				return
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			w.o.Log("answer socket: %v (accepting again in %v)", err, backoff)
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			continue
		}
		backoff = 0
		select {
		case slots <- struct{}{}:
			go w.guard(func() {
				defer func() { <-slots }()
				w.serve(c)
			})
		default:
			c.Close() // busy: the client asks again
		}
	}
}

func (w *wrapper) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	var req Request
	// A request is one line of JSON, and small: a longer one is not read
	// (it would grow the wrapper's memory) and the connection is dropped.
	line, err := bufio.NewReaderSize(io.LimitReader(c, maxRequest), maxRequest).ReadSlice('\n')
	if err != nil {
		return
	}
	if err := json.Unmarshal(line, &req); err != nil {
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
	book, _ := w.o.Rules()
	set := book.Set(st.Agent)
	switch req.Op {
	case "screen":
		// What an answer needs: the prompt, its choices and whether the
		// agent is in front. Not the title (an agent may put anything in it).
		view := session.ScreenState{Agent: st.Agent, State: st.State, Reason: st.Reason, Rule: st.Rule, Since: st.Since, At: st.At,
			Background: st.Background, Via: st.Via, Pid: st.Pid, Prompt: st.Prompt, Choices: st.Choices}
		return Response{OK: true, Screen: &view, Keys: choiceKeys(set, frame)}
	case "type":
		if req.Choice == nil {
			return Response{Why: "an answer names a choice of the prompt shown"}
		}
		if st.Background {
			return Response{Why: ErrNotShown.Error() + ": the agent is not in the foreground"}
		}
		keys, why := keysFor(set, frame, req)
		if why != "" {
			return Response{Why: ErrNotShown.Error() + ": " + why}
		}
		typed, err := rules.KeyBytes(keys)
		if err != nil || len(typed) == 0 || len(typed) > maxKeys {
			return Response{Why: fmt.Sprintf("the rules give no keys this wrapper types for %d %q", req.Choice.N, req.Choice.Label)}
		}
		if _, err := w.master.Write([]byte(typed)); err != nil {
			return Response{Why: "cannot type: " + err.Error()}
		}
		return Response{OK: true, Keys: []ChoiceKeys{{N: req.Choice.N, Label: req.Choice.Label, Keys: keys}}}
	}
	return Response{Why: fmt.Sprintf("unknown op %q", req.Op)}
}

// keysFor reads the prompt on frame with the agent's rules (this frame,
// not the tracker's memory of earlier ones) and returns the keys of the
// request's choice, or why nothing may be typed.
func keysFor(set *rules.Set, f rules.Frame, req Request) ([]string, string) {
	if set == nil || set.Answer == nil {
		return nil, "the rules say nothing about answering this agent's prompts"
	}
	res := set.Classify(f)
	if res.State != session.ScreenBlocked {
		return nil, "the screen shows no prompt"
	}
	if prompt, _ := screen.Prompt(set, f.Rows, res); !screen.SameDialog(req.Rule, req.Prompt, res.Rule, prompt) {
		return nil, "another prompt is shown"
	}
	for _, o := range set.Dialog(f.Rows, res).Options {
		if o.N == req.Choice.N && o.Label == req.Choice.Label {
			return o.Keys, ""
		}
	}
	return nil, fmt.Sprintf("the prompt offers no choice %d %q", req.Choice.N, req.Choice.Label)
}

// choiceKeys are the keys of each choice of the prompt on f (nil when it
// shows none).
func choiceKeys(set *rules.Set, f rules.Frame) []ChoiceKeys {
	if set == nil || set.Answer == nil {
		return nil
	}
	res := set.Classify(f)
	if res.State != session.ScreenBlocked {
		return nil
	}
	var out []ChoiceKeys
	for _, o := range set.Dialog(f.Rows, res).Options {
		out = append(out, ChoiceKeys{N: o.N, Label: o.Label, Keys: o.Keys})
	}
	return out
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
