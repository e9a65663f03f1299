package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/source/remote"
)

// The feed a remote serves: the whole list first (with the feed version),
// again on every change, heartbeats in between.
func TestStatusFeed(t *testing.T) {
	c := newCLI(t)
	if _, errOut, code := c.run(t, "status", "--feed"); code != 2 || !strings.Contains(errOut, "--watch --json") {
		t.Fatalf("--feed alone: %d %q", code, errOut)
	}
	cmd := exec.Command(c.mew, "status", "--watch", "--json", "--feed")
	cmd.Env = c.env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan remote.Line, 64)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l remote.Line
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				lines <- l
			}
		}
		close(lines)
	}()
	next := func() remote.Line {
		t.Helper()
		select {
		case l := <-lines:
			return l
		case <-time.After(60 * time.Second):
			t.Fatal("no feed line")
		}
		return remote.Line{}
	}
	first := next()
	if first.Feed != remote.FeedVersion || first.Version == "" || first.Sessions == nil || len(*first.Sessions) != 0 || first.At.IsZero() {
		t.Fatalf("first line %+v", first)
	}
	if hb := next(); hb.Sessions != nil || hb.Feed != 0 {
		t.Errorf("nothing changed, want a heartbeat: %+v", hb)
	}
	c.writeRegistry(t, "feed-1", "waiting")
	for {
		l := next()
		if l.Sessions == nil {
			continue
		}
		if len(*l.Sessions) != 1 || (*l.Sessions)[0].ID != "feed-1" || (*l.Sessions)[0].State != "waiting" || l.Feed != 0 {
			t.Fatalf("after a change: %+v", l)
		}
		break
	}
}

func TestRemoteCommandsRefuseBadInput(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"remote"},
		{"remote", "frob"},
		{"remote", "add", "box"},
		{"remote", "add", "box", "host", "--ssh-option", "ProxyCommand=sh"},
		{"remote", "add", "box", "host", "--mew", "mew; reboot"},
		{"remote", "add", "../x", "host"},
		{"remote", "add", "box", "host", "--bogus"},
		{"remote", "rm"},
	} {
		if _, errOut, code := c.run(t, args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a reason", args, code, errOut)
		}
	}
	// ssh's spelling -oKey=Value is checked like --ssh-option.
	for _, opt := range []string{"-oProxyCommand=touch /tmp/x", "-oLocalCommand=sh"} {
		if _, errOut, code := c.run(t, "remote", "add", "box", "host", opt, "--no-check"); code != 2 || !strings.Contains(errOut, "is not one Mew passes on") {
			t.Errorf("%s: exit %d, stderr %q; want it refused as an option Mew does not pass on", opt, code, errOut)
		}
	}
	if out, _, code := c.run(t, "remote", "list"); code != 0 || !strings.Contains(out, "No remotes") {
		t.Errorf("nothing was to be written: %d %q", code, out)
	}
	if _, errOut, code := c.run(t, "remote", "rm", "nope"); code != 1 || !strings.Contains(errOut, "no remote called") {
		t.Errorf("rm of an unknown remote: %d %q", code, errOut)
	}
	out, _, code := c.run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "mew ") || !strings.Contains(out, "(feed 1)") {
		t.Errorf("mew version: %d %q", code, out)
	}
}

func TestRemoteAddTakesSSHSpellings(t *testing.T) {
	r, check, err := parseRemoteAdd([]string{"box", "me@devbox", "-oPort=2222", "--ssh-option", "IdentityFile=/k/id", "-o", "User=me", "--no-check"})
	if err != nil || check {
		t.Fatalf("parse: %v (check %v)", err, check)
	}
	if got := strings.Join(r.SSHOptions, " "); got != "Port=2222 IdentityFile=/k/id User=me" {
		t.Errorf("options %q", got)
	}
}
