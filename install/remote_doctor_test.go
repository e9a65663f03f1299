package install

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mew-dev/mew/source/remote"
)

// fakeHosts answers `mew version` and `mew doctor` per host.
func fakeRemoteHosts(answers map[string][2]string, fail map[string]error) remote.RunFunc {
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

func TestDoctorRemotes(t *testing.T) {
	remotes := []remote.Remote{{Name: "good", Host: "g"}, {Name: "nohooks", Host: "n"}, {Name: "down", Host: "d"}, {Name: "old", Host: "o"}, {Name: "odd", Host: "x"}}
	run := fakeRemoteHosts(map[string][2]string{
		"g": {"mew devel (feed 1)\n", "ok       Mew's hook is registered\nMew is set up.\n"},
		"n": {"mew devel (feed 1)\n", "problem  /h/.claude/settings.json does not exist, so Mew's hook is not registered; run `mew install`\nwarning  claude is not on PATH\nMew cannot see your Claude Code sessions until the problems above are fixed.\n"},
		"o": {"mew v0.1.0 (feed 0)\n", ""},
		"x": {"\x1b[2Jhello\n", ""},
	}, map[string]error{"d": errors.New("ssh: connect to host d port 22: Connection refused")})
	got := DoctorRemotes(context.Background(), remotes, "/usr/bin/ssh", run)
	want := []struct {
		level Level
		text  string
	}{
		{OK, "remote good (g): reachable; it runs mew devel"},
		{OK, "remote good (g): Mew's hook is registered"},
		{OK, "remote nohooks (n): reachable"},
		{Problem, "remote nohooks (n): /h/.claude/settings.json does not exist"},
		{Warning, "remote nohooks (n): claude is not on PATH"},
		{Problem, "remote down (d): ssh: connect to host d port 22: Connection refused; Mew shows it offline"},
		{Problem, "remote old (o): its mew v0.1.0 speaks feed 0, this one 1"},
		{Problem, "remote odd (x): `mew version` printed"},
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
	if !Failed(got) {
		t.Error("problems on a remote must fail the doctor")
	}
}
