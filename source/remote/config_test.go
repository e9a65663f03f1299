package remote

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestValidHost(t *testing.T) {
	good := []string{"devbox", "me@devbox", "build-01.example.com", "10.0.0.7", "::1", "fe80::1%eth0", "[::1]", "u_1@127.0.0.1", "box_2"}
	for _, h := range good {
		if !ValidHost(h) {
			t.Errorf("ValidHost(%q) = false, want true", h)
		}
	}
	bad := []string{"", "-oProxyCommand=sh", "me@-oProxyCommand=x", "@host", "me@", "a b", "host;rm", "host\nx", "$(id)", "host:22", "ssh://host", "me@me@host", "-", ".", "[host]", "a/b", "ho`st`", strings.Repeat("a", 300)}
	for _, h := range bad {
		if ValidHost(h) {
			t.Errorf("ValidHost(%q) = true, want false", h)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, n := range []string{"devbox", "gpu-2", "A_b"} {
		if !ValidName(n) {
			t.Errorf("ValidName(%q) = false", n)
		}
	}
	for _, n := range []string{"", "-x", "_x", "a b", "a/b", "..", "a.b", strings.Repeat("a", 33), "é"} {
		if ValidName(n) {
			t.Errorf("ValidName(%q) = true", n)
		}
	}
}

func TestNormalizeOption(t *testing.T) {
	ok := map[string]string{
		"Port=2222":                        "Port=2222",
		"port 2222":                        "Port=2222",
		"-oIdentityFile=~/.ssh/id_work":    "IdentityFile=~/.ssh/id_work",
		"-o ProxyJump=bastion":             "ProxyJump=bastion",
		"StrictHostKeyChecking=accept-new": "StrictHostKeyChecking=accept-new",
	}
	for in, want := range ok {
		got, err := NormalizeOption(in)
		if err != nil || got != want {
			t.Errorf("NormalizeOption(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"ProxyCommand=nc %h %p":     "not one Mew passes on",
		"LocalCommand=touch /tmp/x": "not one Mew passes on",
		"KnownHostsCommand=/bin/sh": "not one Mew passes on",
		"BatchMode=no":              "sets BatchMode=yes itself",
		"RemoteCommand=sh":          "sets RemoteCommand=none itself",
		"Port":                      "want Key=Value",
		"=2":                        "want Key=Value",
		"Port=22\nProxyCommand=sh":  "control characters",
		"IdentityFile=/a b":         "spaces",
		"User=\"root\"":             "quotes",
		"Include=/etc/other":        "not one Mew passes on",
		"Match=exec true":           "not one Mew passes on",
	}
	for in, want := range bad {
		_, err := NormalizeOption(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NormalizeOption(%q) error %v, want one saying %q", in, err, want)
		}
	}
}

func TestSSHArgvShape(t *testing.T) {
	r := Remote{Name: "box", Host: "me@devbox", SSHOptions: []string{"Port=2222", "ConnectTimeout=3"}}
	argv, err := r.SSHArgv("/usr/bin/ssh", FeedCommand(r)...)
	if err != nil {
		t.Fatal(err)
	}
	// The host and the command come after "--", alone; every option is a
	// "-o" pair; Mew's forced options come first (ssh keeps the first
	// value), the person's before Mew's defaults.
	n := len(argv)
	if argv[0] != "/usr/bin/ssh" || argv[1] != "-T" || argv[n-3] != "--" || argv[n-2] != "me@devbox" || argv[n-1] != "mew status --watch --json --feed" {
		t.Fatalf("argv = %q", argv)
	}
	opts := argv[2 : n-3]
	if len(opts)%2 != 0 {
		t.Fatalf("options not in pairs: %q", opts)
	}
	var vals []string
	for i := 0; i < len(opts); i += 2 {
		if opts[i] != "-o" {
			t.Fatalf("option %d is %q, want -o", i, opts[i])
		}
		vals = append(vals, opts[i+1])
	}
	if vals[0] != "BatchMode=yes" {
		t.Errorf("BatchMode is not the first option: %q", vals)
	}
	mine, def := slices.Index(vals, "ConnectTimeout=3"), slices.Index(vals, "ConnectTimeout=10")
	if mine < 0 || def < 0 || mine > def {
		t.Errorf("the remote's ConnectTimeout must come before Mew's default: %q", vals)
	}
	if slices.Index(vals, "Port=2222") < slices.Index(vals, "RemoteCommand=none") {
		t.Errorf("the person's options came before Mew's forced ones: %q", vals)
	}
}

func TestSSHArgvRefuses(t *testing.T) {
	cases := []struct {
		r    Remote
		cmd  []string
		want string
	}{
		{Remote{Name: "x", Host: "-oProxyCommand=touch"}, []string{"mew"}, "host"},
		{Remote{Name: "x", Host: "h", SSHOptions: []string{"ProxyCommand=sh"}}, []string{"mew"}, "ProxyCommand"},
		{Remote{Name: "x", Host: "h", SSHOptions: []string{"port=22"}}, []string{"mew"}, "not in the form"},
		{Remote{Name: "x", Host: "h", Mew: "mew;reboot"}, []string{"mew"}, "mew command"},
		{Remote{Name: "x", Host: "h", Mew: "$(id)"}, []string{"mew"}, "mew command"},
		{Remote{Name: "x", Host: "h", Mew: "../../bin/mew"}, []string{"mew"}, "mew command"},
		{Remote{Name: "x", Host: "h"}, []string{"tmux", "select-pane", "-t", "%1;id"}, "needs quoting"},
		{Remote{Name: "x", Host: "h"}, []string{"tmux", "select-pane", "-t", "$HOME"}, "needs quoting"},
		{Remote{Name: "x", Host: "h"}, []string{"tmux", "select-pane", "-t", "%1"}, "needs quoting"},
		{Remote{Name: "x", Host: "h"}, []string{"a b"}, "needs quoting"},
		{Remote{Name: "x", Host: "h"}, nil, "no remote command"},
	}
	for _, c := range cases {
		if _, err := c.r.SSHArgv("/usr/bin/ssh", c.cmd...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SSHArgv(%+v, %q) error %v, want one about %q", c.r, c.cmd, err, c.want)
		}
	}
	if _, err := (Remote{Name: "x", Host: "h", Mew: "~/.local/bin/mew"}).SSHArgv("/usr/bin/ssh", "~/.local/bin/mew", "version"); err != nil {
		t.Errorf("a home-relative mew path was refused: %v", err)
	}
}

func TestConfigEditRoundTrip(t *testing.T) {
	home := t.TempDir()
	add := func(r Remote) error { return Edit(home, func(c *Config) error { return c.Add(r) }) }
	if err := add(Remote{Name: "zeta", Host: "z"}); err != nil {
		t.Fatal(err)
	}
	if err := add(Remote{Name: "alpha", Host: "me@a", SSHOptions: []string{"Port=2200"}}); err != nil {
		t.Fatal(err)
	}
	if err := add(Remote{Name: "Alpha", Host: "b"}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second remote of the same name (other case): %v", err)
	}
	c, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Remotes) != 2 || c.Remotes[0].Name != "alpha" || c.Remotes[1].Name != "zeta" || c.Remotes[0].SSHOptions[0] != "Port=2200" {
		t.Fatalf("config = %+v", c)
	}
	fi, err := os.Stat(ConfigPath(home))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config file mode %v, %v; want 0600", fi.Mode(), err)
	}
	if err := Edit(home, func(c *Config) error { return c.Remove("nope") }); err == nil {
		t.Error("removing an unknown remote succeeded")
	}
	if err := Edit(home, func(c *Config) error { return c.Remove("ZETA") }); err != nil {
		t.Fatal(err)
	}
	if c, _ := Load(home); len(c.Remotes) != 1 || c.Remotes[0].Name != "alpha" {
		t.Fatalf("after rm: %+v", c)
	}
}

// Two `mew remote add` at once both land.
func TestConfigConcurrentAdds(t *testing.T) {
	home := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Edit(home, func(c *Config) error {
				return c.Add(Remote{Name: "r" + string(rune('a'+i)), Host: "h"})
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if c, err := Load(home); err != nil || len(c.Remotes) != 8 {
		t.Fatalf("%d remotes, %v; want 8", len(c.Remotes), err)
	}
}

// A config file edited by hand into something hostile is refused whole,
// never half-used.
func TestLoadRefusesBadFiles(t *testing.T) {
	cases := map[string]string{
		"not json":         `{`,
		"future version":   `{"version": 9, "remotes": []}`,
		"hostile host":     `{"version": 1, "remotes": [{"name": "a", "host": "-oProxyCommand=sh -c id"}]}`,
		"hostile option":   `{"version": 1, "remotes": [{"name": "a", "host": "h", "ssh_options": ["ProxyCommand=sh"]}]}`,
		"unnormal option":  `{"version": 1, "remotes": [{"name": "a", "host": "h", "ssh_options": ["-oPort=22"]}]}`,
		"hostile mew path": `{"version": 1, "remotes": [{"name": "a", "host": "h", "mew": "mew && rm -rf ~"}]}`,
		"twice":            `{"version": 1, "remotes": [{"name": "a", "host": "h"}, {"name": "A", "host": "g"}]}`,
		"bad name":         `{"version": 1, "remotes": [{"name": "../x", "host": "h"}]}`,
	}
	for name, body := range cases {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, "remotes.json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(home); err == nil {
			t.Errorf("%s: loaded", name)
		}
		// Edit refuses too, and leaves the file as it was.
		if err := Edit(home, func(c *Config) error { return nil }); err == nil {
			t.Errorf("%s: edited", name)
		}
		if got, _ := os.ReadFile(filepath.Join(home, "remotes.json")); string(got) != body {
			t.Errorf("%s: the file changed", name)
		}
	}
	if c, err := Load(t.TempDir()); err != nil || len(c.Remotes) != 0 {
		t.Errorf("no file: %+v, %v; want an empty config", c, err)
	}
}

// ssh looks "[::1]" up as a name and never connects: the brackets (how a
// URL writes an IPv6 address, which ValidHost accepts) are left out.
func TestSSHArgvUnbracketsIPv6(t *testing.T) {
	for host, want := range map[string]string{"root@[::1]": "root@::1", "[fe80::1%eth0]": "fe80::1%eth0", "root@::1": "root@::1", "me@box": "me@box"} {
		argv, err := Remote{Name: "v6", Host: host}.SSHArgv("/usr/bin/ssh", "mew", "status")
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		i := slices.Index(argv, "--")
		if i < 0 || i+1 >= len(argv) || argv[i+1] != want {
			t.Errorf("%s: argv %q, want destination %q", host, argv, want)
		}
	}
}

// remotes.json is read only when it is a regular file of a sane size: a
// FIFO hung the open, a link to /dev/zero took gigabytes.
func TestLoadReadsOnlyARegularConfig(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		make      func(path string) error
	}{
		{"fifo", "not a regular file: a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"device", "not a regular file: a device", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"huge", "over the limit", func(p string) error { return os.WriteFile(p, make([]byte, maxConfig+1), 0o600) }},
	} {
		home := t.TempDir()
		if err := tc.make(ConfigPath(home)); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := Load(home); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), ConfigPath(home)) {
				t.Errorf("%s: %v, want the file named and %q", tc.name, err, tc.why)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Load did not return", tc.name)
		}
	}
}
