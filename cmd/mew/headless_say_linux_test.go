package main

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/mew-dev/mew/notify"
)

// ptyOutput collects what a process writes to its terminal.
type ptyOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (p *ptyOutput) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.Write(b)
}

func (p *ptyOutput) waitFor(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		p.mu.Lock()
		s := p.buf.String()
		p.mu.Unlock()
		if strings.Contains(s, want) {
			return
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t.Fatalf("the terminal never showed %q:\n%s", want, p.buf.String())
}

// `mew watch --headless` on a terminal says what it does: that it sends
// (and to which sinks) or which Mew it defers to; a sink added while it
// runs is said and used at once, no restart (issue 40, item 4).
func TestHeadlessSaysWhatItDoesAndTakesNewSinks(t *testing.T) {
	c := newCLI(t)
	startOnPty := func() (*headlessWatch, *ptyOutput) {
		cmd := exec.Command(c.mew, "watch", "--headless")
		cmd.Env = c.env
		f, err := pty.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		out := &ptyOutput{}
		go io.Copy(out, f)
		h := &headlessWatch{cmd: cmd, done: make(chan error, 1), log: c.home + "/mew.log"}
		go func() { h.done <- cmd.Wait(); f.Close() }()
		t.Cleanup(func() { h.stop(t) })
		return h, out
	}
	first, said := startOnPty()
	said.waitFor(t, "watching the sessions of")
	said.waitFor(t, "this Mew sends the alerts")
	first.waitLog(t, "notify: watching")

	second, deferred := startOnPty()
	deferred.waitFor(t, "not sending: mew watch --headless (pid ")
	deferred.waitFor(t, "takes over when it quits")
	second.stop(t)

	srv, got := hookSink(t)
	addSink(t, c, "phone", "--webhook", srv.URL+"/mew")
	said.waitFor(t, "notify: 1 sink(s): phone (http://127.0.0.1")
	c.startWaiting(t, waitingID)
	wantPost(t, got, waitingID) // the sink added while it ran
}

// wantPost waits for the webhook's POST of session id.
func wantPost(t *testing.T, got chan notify.Message, id string) {
	t.Helper()
	select {
	case m := <-got:
		if m.Session.ID != id {
			t.Fatalf("POST %+v, want session %s", m, id)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no POST for %s", id)
	}
}
