package app

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// choiceHit finds the button of choice n (0: the "answer in the terminal"
// button) on the controller's frame.
func choiceHit(t *testing.T, c *Controller, n int) board.Hit {
	t.Helper()
	f, _ := c.Frame()
	for _, h := range f.Hits {
		if h.Choice == n && (n != 0 || h.H < 20) {
			return h
		}
	}
	t.Fatalf("no button for choice %d in %+v", n, f.Hits)
	return board.Hit{}
}

func TestPanelClicks(t *testing.T) {
	c := NewController(board.DefaultConfig())
	w := shown("w1", session.Waiting, t0, "/p/alpha")
	w.Choices, w.AnswerVia = []session.Choice{{N: 1, Label: "Yes"}, {N: 3, Label: "No"}}, "tmux"
	other := shown("w2", session.Waiting, t0.Add(time.Second), "/p/beta")
	other.Choices = []session.Choice{{N: 1, Label: "React"}}
	c.SetSessions([]session.Shown{w, other}, 0, t0.Add(time.Minute))
	if !c.PanelShown() {
		t.Fatal("the panel did not open")
	}
	no := choiceHit(t, c, 3)
	if got := c.ClickAt(no.X+1, no.Y+1); got.Kind != ClickAnswer || got.ID != "w1" || got.Choice.Label != "No" {
		t.Errorf("click on No: %+v", got)
	}
	if got := c.ClickAt(5, 20); got.Kind != ClickJump || got.ID != "w1" {
		t.Errorf("click on the row: %+v", got)
	}
	// w2's terminal takes no typing: its one button jumps.
	f, _ := c.Frame()
	var elsewhere board.Hit
	for _, h := range f.Hits {
		if h.ID == "w2" && h.H < 20 {
			elsewhere = h
		}
	}
	if got := c.ClickAt(elsewhere.X+1, elsewhere.Y+1); elsewhere.ID == "" || got.Kind != ClickJump || got.ID != "w2" {
		t.Errorf("click on answer in the terminal: %+v (%+v)", got, elsewhere)
	}
	// The prompt went meanwhile (the rows are newer than the frame the
	// person clicked on): nothing.
	gone := shown("w1", session.Working, t0.Add(2*time.Minute), "/p/alpha")
	c.rows = board.Arrange([]session.Shown{gone}, t0.Add(2*time.Minute), board.DefaultConfig())
	if got := c.ClickAt(no.X+1, no.Y+1); got.Kind != ClickNothing {
		t.Errorf("click on a stale button: %+v", got)
	}
	if got := c.ClickAt(-5, -5); got.Kind != ClickNothing {
		t.Errorf("click outside: %+v", got)
	}
}

func TestAnswersOneAtATime(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var typed []string
	a := &Answers{Answer: func(_ context.Context, rec session.Record, c session.Choice) answer.Result {
		mu.Lock()
		typed = append(typed, rec.ID+" "+c.Label)
		mu.Unlock()
		<-release
		return answer.Result{Outcome: answer.Answered}
	}}
	a.SetRecords([]session.Record{{ID: "s1"}, {ID: "s2"}})
	results := make(chan answer.Result, 4)
	done := func(r answer.Result) { results <- r }
	a.Submit("s1", session.Choice{N: 1, Label: "Yes"}, done)
	a.Submit("s2", session.Choice{N: 1, Label: "Yes"}, done) // while the first runs
	if r := <-results; r.Outcome != answer.Refused || r.Message != "typed nothing: another answer is being typed" {
		t.Fatalf("second answer: %+v", r)
	}
	a.Submit("gone", session.Choice{N: 1, Label: "Yes"}, done)
	if r := <-results; r.Outcome != answer.Refused {
		t.Fatalf("unknown session: %+v", r)
	}
	close(release)
	if r := <-results; r.Outcome != answer.Answered {
		t.Fatalf("first answer: %+v", r)
	}
	a.Submit("s2", session.Choice{N: 2, Label: "No"}, done)
	if r := <-results; r.Outcome != answer.Answered {
		t.Fatalf("next answer: %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(typed) != 2 || typed[0] != "s1 Yes" || typed[1] != "s2 No" {
		t.Errorf("typed %q", typed)
	}
	if AnswerFeedback(answer.Result{Outcome: answer.Answered}) != "" || AnswerFeedback(answer.Result{Outcome: answer.Stuck}) == "" {
		t.Error("feedback sounds")
	}
}

// An id that is not this machine's goes to the remote route; the remote
// route answers through the mew of the session's machine, by ssh.
func TestAnswersGoToTheSessionsMachine(t *testing.T) {
	waiting := session.Shown{ID: "claude:far", State: session.Waiting, AnswerVia: "tmux", Choices: []session.Choice{{N: 1, Label: "Yes"}}}
	pr, pw := io.Pipe()
	go func() {
		fw := remote.NewFeedWriter(pw)
		noTerm := waiting
		noTerm.ID, noTerm.AnswerVia = "claude:noterm", ""
		fw.Snapshot([]session.Shown{waiting, noTerm}, nil)
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
	defer func() { cancel(); pw.Close(); <-hubDone }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, _, ok := hub.Find("claude:far"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hub never listed the remote session")
		}
	}

	var ran [][]string
	var mu sync.Mutex
	run := func(_ context.Context, argv []string) (string, error) {
		mu.Lock()
		ran = append(ran, argv)
		mu.Unlock()
		return `{"outcome":"answered","message":"answered 1 \"Yes\""}`, nil
	}
	a := &Answers{
		Answer: func(context.Context, session.Record, session.Choice) answer.Result {
			t.Error("a remote session was answered on this machine")
			return answer.Result{}
		},
		Remote: RemoteAnswer(hub, func() (string, error) { return "/usr/bin/ssh", nil }, run),
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
