package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
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
