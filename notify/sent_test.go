package notify

import (
	"context"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// A Mew restarted while a session still waits does not send that wait's
// alert again, even when its first view saw the session working (a screen
// not read yet); a new wait of the session is sent.
func TestAlertSentBeforeARestartIsNotSentAgain(t *testing.T) {
	home := t.TempDir()
	since := time.Now().Add(-2 * time.Minute)
	waiting := func(since time.Time) session.Shown {
		return session.Shown{ID: "w", Agent: "claude", State: session.Waiting, Reason: session.ReasonPermission, Since: since}
	}
	working := session.Shown{ID: "w", Agent: "claude", State: session.Working, Since: since.Add(-time.Minute)}
	run := func(views ...session.Shown) []Message {
		sent := make(chan Message, 8)
		log := &lines{}
		l := &Loop{Board: board.DefaultConfig(), Send: func(m Message) { sent <- m }, Log: log,
			Sent: &Sent{Home: home, Log: log}}
		ctx, cancel := context.WithCancel(context.Background())
		updates := make(chan monitor.Update)
		done := make(chan struct{})
		go func() { l.Run(ctx, updates); close(done) }()
		for _, v := range views {
			updates <- monitor.Update{Sessions: list(v)}
		}
		// The loop has taken the last update once it takes the next one.
		updates <- monitor.Update{Sessions: list(views[len(views)-1])}
		cancel()
		<-done
		var out []Message
		for len(sent) > 0 {
			out = append(out, <-sent)
		}
		return out
	}
	if got := run(working, waiting(since)); len(got) != 1 {
		t.Fatalf("first Mew sent %d alerts, want 1", len(got))
	}
	if got := run(working, waiting(since)); len(got) != 0 {
		t.Fatalf("restarted Mew sent the old wait's alert again: %+v", got)
	}
	if got := run(working, waiting(time.Now().Add(-time.Second))); len(got) != 1 {
		t.Fatalf("a new wait sent %d alerts, want 1", len(got))
	}
}
