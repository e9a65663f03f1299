package act

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

func TestAnswersOneAtATime(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var typed []string
	s := &Sessions{}
	s.Set([]session.Record{{ID: "s1"}, {ID: "s2"}})
	a := &Answerer{Sessions: s, Local: func(_ context.Context, rec session.Record, c session.Choice) answer.Result {
		mu.Lock()
		typed = append(typed, rec.ID+" "+c.Label)
		mu.Unlock()
		<-release
		return answer.Result{Outcome: answer.Answered}
	}}
	results := make(chan answer.Result, 4)
	done := func(r answer.Result) { results <- r }
	a.Submit("s1", session.Choice{N: 1, Label: "Yes"}, done)
	a.Submit("s2", session.Choice{N: 1, Label: "Yes"}, done) // while the first runs
	if r := <-results; r.Outcome != answer.Refused || r.Message != "typed nothing: another answer is being typed" {
		t.Fatalf("second answer: %+v", r)
	}
	close(release)
	if r := <-results; r.Outcome != answer.Answered {
		t.Fatalf("first answer: %+v", r)
	}
	a.Submit("gone", session.Choice{N: 1, Label: "Yes"}, done)
	if r := <-results; r.Outcome != answer.Refused || r.Message != "typed nothing: the session gone is gone" {
		t.Fatalf("unknown session: %+v", r)
	}
	a.Submit("s2", session.Choice{N: 2, Label: "No"}, done)
	if r := <-results; r.Outcome != answer.Answered {
		t.Fatalf("next answer: %+v", r)
	}
	if _, err := a.Answer("gone-too-long", session.Choice{N: 1}); err == nil || err.Error() != "the session gone-too is gone" {
		t.Fatalf("the terminal board's answer to an unknown session: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(typed) != 2 || typed[0] != "s1 Yes" || typed[1] != "s2 No" {
		t.Errorf("typed %q", typed)
	}
}

// followedHub is a hub following one remote, "box", that lists sessions.
func followedHub(t *testing.T, sessions ...session.Shown) *remote.Hub {
	t.Helper()
	pr, pw := io.Pipe()
	go func() {
		remote.NewFeedWriter(pw).Snapshot(sessions, nil)
		// The connection stays open, as ssh does.
	}()
	hub := remote.New(remote.Options{
		Remotes: []remote.Remote{{Name: "box", Host: "devbox"}},
		Dial: func(ctx context.Context, r remote.Remote) (remote.Conn, error) {
			return remote.Conn{Out: pr, Close: func() { pr.Close() }, Wait: func() error { return nil }}, nil
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	hubDone := make(chan struct{})
	go func() { hub.Run(ctx); close(hubDone) }()
	t.Cleanup(func() { cancel(); pw.Close(); <-hubDone })
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if len(hub.Sessions()) == len(sessions) {
			return hub
		}
		if time.Now().After(deadline) {
			t.Fatal("the hub never listed the remote sessions")
		}
	}
}

// An id that is not this machine's goes to the remote route; the remote
// route answers through the mew of the session's machine, by ssh.
func TestAnswersGoToTheSessionsMachine(t *testing.T) {
	waiting := session.Shown{ID: "claude:far", State: session.Waiting, AnswerVia: "tmux", Choices: []session.Choice{{N: 1, Label: "Yes"}}}
	noTerm := waiting
	noTerm.ID, noTerm.AnswerVia = "claude:noterm", ""
	hub := followedHub(t, waiting, noTerm)

	var ran [][]string
	var mu sync.Mutex
	run := func(_ context.Context, argv []string) (string, error) {
		mu.Lock()
		ran = append(ran, argv)
		mu.Unlock()
		return `{"outcome":"answered","message":"answered 1 \"Yes\""}`, nil
	}
	a := &Answerer{
		Sessions: &Sessions{Remotes: func() *remote.Hub { return hub }},
		Local: func(context.Context, session.Record, session.Choice) answer.Result {
			t.Error("a remote session was answered on this machine")
			return answer.Result{}
		},
		FindSSH: func() (string, error) { return "/usr/bin/ssh", nil },
		Run:     run,
	}
	results := make(chan answer.Result, 2)
	a.Submit("claude:far", session.Choice{N: 1, Label: "Yes"}, func(r answer.Result) { results <- r })
	if r := <-results; r.Outcome != answer.Answered || r.Message != `box: answered 1 "Yes"` {
		t.Fatalf("remote answer: %+v", r)
	}
	a.Submit("claude:noterm", session.Choice{N: 1, Label: "Yes"}, func(r answer.Result) { results <- r })
	if r := <-results; r.Outcome != answer.NoTerminal {
		t.Fatalf("a remote terminal its mew cannot type into: %+v", r)
	}
	a.Submit("claude:nowhere", session.Choice{N: 1, Label: "Yes"}, func(r answer.Result) { results <- r })
	if r := <-results; r.Outcome != answer.Refused || !strings.Contains(r.Message, "is gone") {
		t.Fatalf("unknown session: %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 1 || ran[0][0] != "/usr/bin/ssh" || !strings.HasSuffix(ran[0][len(ran[0])-1], "-- claude:far 1") {
		t.Errorf("ran %q", ran)
	}
}

func TestUnexpectedLabel(t *testing.T) {
	c := session.Choice{N: 2, Label: "Yes, and\tdon't ask again"}
	if _, refused := Unexpected(c, "Yes, and don't ask again"); refused {
		t.Error("the label as one line of plain text is the same label")
	}
	res, refused := Unexpected(c, "No")
	if !refused || res.Outcome != answer.Refused || !strings.Contains(res.Message, "the prompt changed (choice 2 is now") {
		t.Errorf("another label: %v %+v", refused, res)
	}
}
