package remote

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mew-dev/mew/install"
)

// fakeHosts answers `mew version` and `mew doctor` per host.
func fakeHosts(answers map[string][2]string, fail map[string]error) RunFunc {
	return func(ctx context.Context, argv []string) (string, error) {
		host, cmd := argv[len(argv)-2], argv[len(argv)-1]
		if err := fail[host]; err != nil {
			return "", err
		}
		switch {
		case strings.HasSuffix(cmd, " version"):
			return answers[host][0], nil
		case strings.HasSuffix(cmd, " doctor --local"):
			return answers[host][1], errors.New("exit status 1")
		}
		return "", errors.New("unexpected command: " + cmd)
	}
}

func TestDoctor(t *testing.T) {
	remotes := []Remote{{Name: "good", Host: "g"}, {Name: "nohooks", Host: "n"}, {Name: "down", Host: "d"}, {Name: "old", Host: "o"}, {Name: "odd", Host: "x"}}
	run := fakeHosts(map[string][2]string{
		"g": {"mew devel (feed 1)\n", "ok       Mew's hook is registered\nMew is set up.\n"},
		"n": {"mew devel (feed 1)\n", "problem  /h/.claude/settings.json does not exist, so Mew's hook is not registered; run `mew install`\nwarning  claude is not on PATH\nMew cannot see your Claude Code sessions until the problems above are fixed.\n"},
		"o": {"mew v0.1.0 (feed 0)\n", ""},
		"x": {"\x1b[2Jhello\n", ""},
	}, map[string]error{"d": errors.New("ssh: connect to host d port 22: Connection refused")})
	got := Doctor(context.Background(), remotes, "/usr/bin/ssh", run)
	want := []struct {
		level install.Level
		text  string
	}{
		{install.OK, "remote good (g): reachable; it runs mew devel"},
		{install.OK, "remote good (g): Mew's hook is registered"},
		{install.OK, "remote nohooks (n): reachable"},
		{install.Problem, "remote nohooks (n): /h/.claude/settings.json does not exist"},
		{install.Warning, "remote nohooks (n): claude is not on PATH"},
		{install.Problem, "remote down (d): ssh: connect to host d port 22: Connection refused; Mew shows it offline"},
		{install.Problem, "remote old (o): its mew v0.1.0 speaks feed 0, this one 1"},
		{install.Problem, "remote odd (x): `mew version` printed"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Level != w.level || !strings.HasPrefix(got[i].Text, w.text) {
			t.Errorf("finding %d = %v %q, want %v %q…", i, got[i].Level, got[i].Text, w.level, w.text)
		}
	}
	if strings.ContainsRune(got[7].Text, 0x1b) {
		t.Errorf("a host's escape sequence reached the report: %q", got[7].Text)
	}
	if !install.Failed(got) {
		t.Error("problems on a remote must fail the doctor")
	}
}
