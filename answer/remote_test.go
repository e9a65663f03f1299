package answer

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

func TestRemoteArgv(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "me@devbox", Mew: "/opt/mew/bin/mew"}
	label := "Yes, and don't ask again for `rm -rf $HOME`; ok?"
	argv, err := RemoteArgv(r, "/usr/bin/ssh", "tmux:%12", session.Choice{N: 2, Label: label})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(argv, "--")
	if i < 0 || argv[i+1] != "me@devbox" {
		t.Fatalf("argv %q: no host after --", argv)
	}
	// ssh hands the remote shell one line: every word must be safe in it.
	want := []string{"/opt/mew/bin/mew", "answer", "--json", ExpectFlag, EncodeExpect(label), "--", "tmux:%12", "2"}
	if got := argv[i+2:]; len(got) != 1 || got[0] != strings.Join(want, " ") {
		t.Fatalf("remote command %q, want %q", got, want)
	}
	for _, w := range want[1:] {
		if strings.ContainsAny(w, " ;'\"`$&|<>\\") {
			t.Errorf("word %q would need quoting on the remote shell", w)
		}
	}
	if got, err := DecodeExpect(EncodeExpect(label)); err != nil || got != label {
		t.Errorf("the label does not come back: %q %v", got, err)
	}
	if _, err := DecodeExpect("not base64!"); err == nil {
		t.Error("a bad --expect value was taken")
	}

	for _, c := range []struct {
		id     string
		choice session.Choice
	}{
		{"../x", session.Choice{N: 1, Label: "Yes"}},
		{"a b", session.Choice{N: 1, Label: "Yes"}},
		{"claude:abc", session.Choice{N: 0, Label: "Yes"}},
		{"claude:abc", session.Choice{N: 10, Label: "Yes"}},
		{"claude:abc", session.Choice{N: 1, Label: strings.Repeat("x", 4*remote.MaxLabel+1)}},
	} {
		if argv, err := RemoteArgv(r, "/usr/bin/ssh", c.id, c.choice); err == nil {
			t.Errorf("%q %+v: refused nothing: %q", c.id, c.choice, argv)
		}
	}
}

func TestOnRemoteRelaysTheResult(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	yes := session.Choice{N: 1, Label: "Yes"}
	ctx := context.Background()
	var ran []string
	run := func(out string, err error) remote.RunFunc {
		return func(_ context.Context, argv []string) (string, error) {
			ran = argv
			return out, err
		}
	}

	res := OnRemote(ctx, r, "ssh", "claude:abc", yes, run(`{"outcome":"answered","message":"answered 1 \"Yes\"","via":"tmux","keys":["1"]}`, nil))
	if res.Outcome != Answered || res.Message != `box: answered 1 "Yes"` || res.Via != "ssh/tmux" || !slices.Equal(res.Keys, []string{"1"}) {
		t.Errorf("answered: %+v", res)
	}
	if !strings.HasPrefix(ran[len(ran)-1], "mew answer --json") || !strings.HasSuffix(ran[len(ran)-1], " -- claude:abc 1") {
		t.Errorf("ran %q", ran)
	}

	// The remote refused (its exit status is not 0, its JSON says why).
	res = OnRemote(ctx, r, "ssh", "claude:abc", yes, run(`{"outcome":"refused","message":"typed nothing: the prompt changed"}`, errors.New("exit status 1")))
	if res.Outcome != Refused || res.Message != "box: typed nothing: the prompt changed" {
		t.Errorf("refused: %+v", res)
	}

	// Hostile words from the remote are one line of plain text.
	res = OnRemote(ctx, r, "ssh", "claude:abc", yes, run(`{"outcome":"answered","message":"ok\u001b]0;pwned\u0007\nsecond line","via":"tmux\r\nx"}`, nil))
	if strings.ContainsAny(res.Message+res.Via, "\x1b\x07\n\r") {
		t.Errorf("control characters relayed: %q %q", res.Message, res.Via)
	}

	// No JSON: failed, never answered, with why.
	for _, c := range []struct {
		out  string
		err  error
		want string
	}{
		{"", errors.New("ssh: connect to host devbox port 22: Connection refused"), "cannot answer there: ssh: connect to host devbox"},
		{"mew: command not found", errors.New("exit status 127"), "cannot answer there"},
		{`{"outcome":"maybe"}`, nil, "did not say what it did"},
	} {
		res = OnRemote(ctx, r, "ssh", "claude:abc", yes, run(c.out, c.err))
		if res.Outcome != Failed || !strings.HasPrefix(res.Message, "box: ") || !strings.Contains(res.Message, c.want) {
			t.Errorf("%q %v: %+v", c.out, c.err, res)
		}
	}

	// Nothing run for a bad id.
	ran = nil
	res = OnRemote(ctx, r, "ssh", "../etc", yes, run("", nil))
	if res.Outcome != Refused || ran != nil {
		t.Errorf("bad id: %+v, ran %q", res, ran)
	}

	// A remote that says nothing in time.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	res = OnRemote(ctx, r, "ssh", "claude:abc", yes, func(ctx context.Context, _ []string) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	if res.Outcome != Failed || !strings.Contains(res.Message, "Mew cannot tell whether it typed") {
		t.Errorf("timeout: %+v", res)
	}
}
