package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/notify"
)

// A webhook answers with a status line that writes the clipboard (OSC 52)
// and clears the screen; `mew notify test` and `mew notify list` show the
// failure without passing any of it to the terminal.
func TestNotifyRemoteTextNeverReachesTheTerminal(t *testing.T) {
	c := newCLI(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				conn.SetDeadline(time.Now().Add(5 * time.Second))
				conn.Write([]byte("HTTP/1.1 500 bad\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			}()
		}
	}()
	addSink(t, c, "hook", "--webhook", "http://"+ln.Addr().String()+"/x")
	addSink(t, c, "cmd", "--command", "--", "/bin/true", "\x1b]52;c;cHduZWQ=\x07\x1b[2J")
	out, _, code := c.run(t, "notify", "test", "hook")
	if code == 0 || !strings.Contains(out, "500") {
		t.Fatalf("notify test: code %d, out %q", code, out)
	}
	assertSafe(t, "notify test", out)

	// What a Mew recorded of the sink (the same text, or a hand-edited file).
	st := map[string]notify.SinkStatus{"hook": {LastError: "POST: " + hostile, ErrorAt: time.Now()}}
	writeJSONFile(t, filepath.Join(c.home, notify.StatusName), st)
	out, _, _ = c.run(t, "notify", "list")
	if !strings.Contains(out, "failed") {
		t.Fatalf("notify list: %q", out)
	}
	assertSafe(t, "notify list", out)
}

func writeJSONFile(t *testing.T, path string, v map[string]notify.SinkStatus) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// alerts.json made a FIFO silenced every alert (the loop hung reading it)
// and kept `watch --headless` alive through SIGTERM, holding notify.lock:
// now the alert goes out (mutes left out, said in mew.log) and SIGTERM
// ends it.
func TestHeadlessWithAFIFOAlertsFile(t *testing.T) {
	c := newCLI(t)
	srv, got := hookSink(t)
	addSink(t, c, "hook", "--webhook", srv.URL+"/mew")
	if err := syscall.Mkfifo(filepath.Join(c.home, "alerts.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHeadless(t, c)
	c.startWaiting(t, waitingID)
	select {
	case m := <-got:
		if m.Session.ID != waitingID {
			t.Fatalf("POST: %+v", m)
		}
	case <-time.After(30 * time.Second):
		b, _ := os.ReadFile(h.log)
		t.Fatalf("no POST; log:\n%s", b)
	}
	h.waitLog(t, "alerts.json")
	h.stop(t) // fails the test if SIGTERM does not end it
}
