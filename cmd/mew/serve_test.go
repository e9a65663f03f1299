package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/weblink"
	"github.com/mew-dev/mew/web"
)

// startServe runs `mew serve args…` and returns its address and pairing
// code, and everything it printed before them.
func startServe(t *testing.T, c *cli, args ...string) (base, code, said string) {
	t.Helper()
	cmd := exec.Command(c.mew, append([]string{"serve"}, args...)...)
	cmd.Env = c.env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var all strings.Builder
	timeout := time.After(20 * time.Second)
	for base == "" || code == "" || !strings.Contains(all.String(), "pairing link: ") {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("mew serve exited:\n%s", all.String())
			}
			all.WriteString(l + "\n")
			if m := regexp.MustCompile(`^Mew's web board: (\S+)/$`).FindStringSubmatch(l); m != nil {
				base = m[1]
			}
			if m := regexp.MustCompile(`^pairing code: ([2-9A-Z]{8}) `).FindStringSubmatch(l); m != nil {
				code = m[1]
			}
		case <-timeout:
			t.Fatalf("mew serve said no address and code:\n%s", all.String())
		}
	}
	go func() {
		for range lines {
		}
	}()
	return base, code, all.String()
}

// `mew serve` on loopback: its address, a pairing code, the board shut to
// a browser that has not paired; `serve devices` lists and revokes.
func TestServeShowsPairingAndGuards(t *testing.T) {
	c := newCLI(t)
	base, _, said := startServe(t, c, "--listen", "127.0.0.1:0")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || strings.Contains(said, "WARNING") || !strings.Contains(said, "pairing link: "+base+"/pair?code=") {
		t.Fatalf("mew serve said:\n%s", said)
	}
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "Pair this device") {
		t.Fatalf("GET / unpaired: %s\n%s", resp.Status, body)
	}
	out, _, code := c.run(t, "serve", "devices")
	if code != 0 || !strings.Contains(out, "no paired devices") {
		t.Fatalf("serve devices: %d %s", code, out)
	}
	dev, _, err := (&web.Devices{Home: c.home}).Add("phone <b>", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ = c.run(t, "serve", "devices")
	if !strings.Contains(out, dev.ID) || !strings.Contains(out, "phone <b>") {
		t.Fatalf("serve devices:\n%s", out)
	}
	if out, _, code := c.run(t, "serve", "devices", "revoke", dev.ID); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %s", code, out)
	}
	if _, errOut, code := c.run(t, "serve", "devices", "revoke", dev.ID); code != 1 || !strings.Contains(errOut, "no paired device") {
		t.Fatalf("revoke twice: %d %s", code, errOut)
	}
}

// Another address than loopback: a warning on the terminal, and pairing
// still required.
func TestServeListenElsewhereWarns(t *testing.T) {
	c := newCLI(t)
	_, _, said := startServe(t, c, "--listen", "0.0.0.0:0")
	if !strings.Contains(said, "WARNING: listening on 0.0.0.0:0") || !strings.Contains(said, "not encrypted") {
		t.Fatalf("no warning:\n%s", said)
	}
}

// Bad flags change nothing and say why.
func TestServeRefusesBadFlags(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"--listen", "example.com:7733"},
		{"--listen", "7733"},
		{"--public-url", "javascript:alert(1)"},
		{"--tls-cert", "x.pem"},
		{"stray"},
	} {
		_, errOut, code := c.run(t, append([]string{"serve"}, args...)...)
		if code != 2 || errOut == "" {
			t.Errorf("mew serve %v: %d %q", args, code, errOut)
		}
	}
	if weblink.Load(c.home) != "" {
		t.Error("a refused public URL was kept")
	}
}

// --public-url is kept for the alerts, and its host name is this server's.
func TestServePublicURL(t *testing.T) {
	c := newCLI(t)
	base, _, said := startServe(t, c, "--listen", "127.0.0.1:0", "--public-url", "https://desk.tail1.ts.net")
	if weblink.Load(c.home) != "https://desk.tail1.ts.net" || !strings.Contains(said, "pairing link: https://desk.tail1.ts.net/pair?code=") {
		t.Fatalf("public URL not kept or not used:\n%s", said)
	}
	req, _ := http.NewRequest("GET", base+"/pair", nil)
	req.Host = "desk.tail1.ts.net"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /pair for the public host: %s", resp.Status)
	}
}

// `mew watch --serve` is the login service's switch: with --headless only.
func TestWatchServeNeedsHeadless(t *testing.T) {
	c := newCLI(t)
	if _, errOut, code := c.run(t, "watch", "--serve"); code != 2 || !strings.Contains(errOut, "--headless") {
		t.Errorf("mew watch --serve: %d %q", code, errOut)
	}
}
