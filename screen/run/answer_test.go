package run

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// dialog is Claude Code's permission prompt, as the agent draws it.
const dialog = "\x1b[2J\x1b[H Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. Yes, and always allow access to /p\r\n   3. No\r\n\r\n Esc to cancel · Tab to amend\r\n"

// agentTerm is a wrapper whose agent (named claude) shows the dialog; the
// agent's side of the PTY records what is typed.
type agentTerm struct {
	w     *wrapper
	sock  string
	mu    sync.Mutex
	typed []byte
	got   chan struct{}
}

func newAgentTerm(t *testing.T) *agentTerm {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); slave.Close() })
	if _, err := term.MakeRaw(int(slave.Fd())); err != nil {
		t.Fatal(err)
	}
	home, err := os.MkdirTemp("", "mewrun") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	book := rules.Embedded()
	w := &wrapper{
		o: Options{Argv: []string{"claude"}, Store: store.Store{Home: home}, Now: time.Now,
			Rules: func() (*rules.Book, []error) { return book, nil }, Log: t.Logf},
		emu: screen.New(screen.DefaultRows, screen.DefaultCols), master: master, child: os.Getpid(), termFd: -1,
	}
	a := &agentTerm{w: w, got: make(chan struct{}, 64)}
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := slave.Read(buf)
			if n > 0 {
				a.mu.Lock()
				a.typed = append(a.typed, buf[:n]...)
				a.mu.Unlock()
				a.got <- struct{}{}
			}
			if err != nil {
				return
			}
		}
	}()
	w.queue = append(w.queue, dialog...)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w.ctx = ctx
	w.startListener()
	a.sock = Socket(home, os.Getpid())
	return a
}

func (a *agentTerm) keys() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.typed)
}

// call sends one raw request line and decodes the answer into a map (the
// fields as any client sees them).
func call(t *testing.T, sock, line string) map[string]any {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		t.Fatal(err)
	}
	var resp map[string]any
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return resp
}

// Only a choice of the prompt shown is typed, with the keys the agent's
// rules give it: keys a client sends are never typed.
func TestAnswerSocketTypesOnlyAChoiceOfThePrompt(t *testing.T) {
	a := newAgentTerm(t)
	resp := call(t, a.sock, `{"op":"screen"}`)
	sc, _ := resp["screen"].(map[string]any)
	if sc == nil || sc["state"] != "blocked" {
		t.Fatalf("screen: %v", resp)
	}
	rule, prompt := sc["rule"].(string), sc["prompt"].(string)
	req := func(extra string) string {
		r, _ := json.Marshal(rule)
		p, _ := json.Marshal(prompt)
		return `{"op":"type","rule":` + string(r) + `,"prompt":` + string(p) + extra + `}`
	}
	for _, bad := range []string{
		`,"keys":"\u001b[200~echo pwned\r\u0003\u0004"`,                  // keys alone
		`,"keys":"2\r","choice":{"n":9,"label":"Yes"}`,                   // no such choice
		`,"choice":{"n":1,"label":"No"}`,                                 // a label of another
		`,"choice":{"n":1,"label":"Yes, and always allow access to /p"}`, // likewise
	} {
		if r := call(t, a.sock, req(bad)); r["ok"] == true {
			t.Errorf("typed for %s: %v", bad, r)
		}
	}
	r := call(t, a.sock, req(`,"keys":"echo pwned\r","choice":{"n":2,"label":"Yes, and always allow access to /p"}`))
	if r["ok"] != true {
		t.Fatalf("the answer was refused: %v", r)
	}
	<-a.got
	if got := a.keys(); got != "2" {
		t.Fatalf("the agent read %q, want the choice's own key %q", got, "2")
	}
}

// The screen op gives the screen's state (what the store holds), and the
// keys of its choices: not the rows, title or the agent's own sequence.
func TestAnswerSocketGivesNoRows(t *testing.T) {
	a := newAgentTerm(t)
	// A secret far above the dialog, and in the title.
	a.w.queue = append([]byte("\x1b]0;token=sk-secret-title\x07\x1b[2J\x1b[Hexport API_KEY=sk-secret-row"+strings.Repeat("\r\n", 15)),
		strings.TrimPrefix(dialog, "\x1b[2J\x1b[H")...)
	resp := call(t, a.sock, `{"op":"screen"}`)
	for _, k := range []string{"rows", "title", "agent_state"} {
		if _, ok := resp[k]; ok {
			t.Errorf("the screen op hands out %q: %v", k, resp[k])
		}
	}
	if data, _ := json.Marshal(resp); strings.Contains(string(data), "sk-secret") {
		t.Errorf("a row outside the prompt reached the client: %s", data)
	}
	sc, _ := resp["screen"].(map[string]any)
	if sc == nil || !strings.Contains(sc["prompt"].(string), "touch x") || len(sc["choices"].([]any)) != 3 {
		t.Errorf("the prompt is missing: %v", resp)
	}
	if keys, _ := resp["keys"].([]any); len(keys) != 3 || !strings.Contains(fmtJSON(keys[1]), `"keys":["2"]`) {
		t.Errorf("the choices' keys: %v", resp["keys"])
	}
}

// A request far over the size of any real one is not read into memory:
// the connection is dropped while the client is still writing.
func TestAnswerSocketDropsAHugeRequest(t *testing.T) {
	a := newAgentTerm(t)
	c, err := net.Dial("unix", a.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	chunk := []byte(strings.Repeat("a", 64<<10))
	io.WriteString(c, `{"op":"screen","prompt":"`)
	written := 0
	for written < 64<<20 {
		n, err := c.Write(chunk)
		written += n
		if err != nil {
			if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("after %d bytes: %v", written, err)
			}
			t.Logf("dropped after %d KiB", written>>10)
			return
		}
	}
	t.Fatalf("the wrapper read %d MiB of one request", written>>20)
}

// failingListener fails its first accepts as a process out of descriptors
// does, then hands out conn.
type failingListener struct {
	net.Listener
	fails int
	conns chan net.Conn
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.fails > 0 {
		l.fails--
		return nil, &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	c, ok := <-l.conns
	if !ok {
		return nil, net.ErrClosed
	}
	return c, nil
}

// An accept error (EMFILE: 249 idle connections under nofile=256) is
// waited out: the socket keeps answering.
func TestAnswerSocketSurvivesAcceptErrors(t *testing.T) {
	a := newAgentTerm(t)
	l := &failingListener{fails: 3, conns: make(chan net.Conn, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.w.acceptLoop(context.Background(), l)
	}()
	client, server := net.Pipe()
	l.conns <- server
	client.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(client, `{"op":"screen"}`+"\n")
	line, err := bufio.NewReader(client).ReadString('\n')
	if err != nil || !strings.Contains(line, `"ok":true`) {
		t.Fatalf("after accept errors: %q %v", line, err)
	}
	close(l.conns)
	<-done
}

func fmtJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// A reading still running when Run returns (a sweep feeding a backlog, an
// answer) neither races the terminal's close nor records anything: the
// session is over. Run under -race, the old unlocked Fd raced the close.
func TestNoReadingOutlivesTheSession(t *testing.T) {
	a := newAgentTerm(t)
	w := a.w
	w.sweep()
	if recs, _ := w.o.Store.List(); len(recs) != 1 {
		t.Fatalf("before the end: %d records, want the dialog's one", len(recs))
	}
	if err := w.o.Store.Remove(ID(os.Getpid()), time.Second); err != nil {
		t.Fatal(err)
	}
	w.written = session.ScreenState{} // the store holds nothing now
	reading := make(chan struct{})
	go func() {
		defer close(reading)
		for range 200 {
			w.foreground()
		}
	}()
	w.end()
	w.closeMaster()
	<-reading
	if pgrp := w.foreground(); pgrp != 0 {
		t.Errorf("foreground after the close: %d, want 0", pgrp)
	}
	w.queue = append(w.queue, dialog...)
	w.sweep()
	if recs, _ := w.o.Store.List(); len(recs) != 0 {
		t.Errorf("a sweep after the end recorded %d sessions", len(recs))
	}
}

// Under `mew run` too, Codex's dialog noticed by its title in one frame and
// by its text in the next is one prompt; another dialog text is not.
func TestKeysForOneDialogUnderAnotherRule(t *testing.T) {
	codex := rules.Embedded().Set("codex")
	rows := strings.Split("  Would you like to run the following command?\n\n  $ touch x\n\n› 1. Yes, proceed (y)\n  2. No, and tell Codex what to do differently (esc)\n\n  Press enter to confirm or esc to cancel", "\n")
	plain := rules.Frame{Rows: rows, Title: "proj"}
	asks := rules.Frame{Rows: rows, Title: "[ ! ] Action Required"}
	shown := codex.Classify(plain)
	prompt, choices := screen.Prompt(codex, rows, shown)
	if len(choices) == 0 || codex.Classify(asks).Rule == shown.Rule {
		t.Fatalf("the frames do not make the case: %+v %+v", shown, codex.Classify(asks))
	}
	req := Request{Op: "type", Rule: shown.Rule, Prompt: prompt, Choice: &choices[0]}
	if keys, why := keysFor(codex, asks, req); why != "" || len(keys) == 0 {
		t.Errorf("the same dialog with the title set: keys %v, refused %q", keys, why)
	}
	other := rules.Frame{Rows: slices.Clone(rows), Title: "[ ! ] Action Required"}
	other.Rows[2] = "  $ touch y"
	if keys, why := keysFor(codex, other, req); why == "" {
		t.Errorf("another dialog: typed %v", keys)
	}
}
