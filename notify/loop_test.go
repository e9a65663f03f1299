package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// The loop alerts when a wait settles with no further update (its own
// timer), holds back a muted session, and sends nothing while another Mew
// holds the lock.
func TestLoopSettlesMutesAndDefers(t *testing.T) {
	prefs := &alertprefs.Store{Home: t.TempDir()}
	if _, err := prefs.ToggleMute("muted"); err != nil {
		t.Fatal(err)
	}
	for _, sending := range []bool{true, false} {
		sent := make(chan Message, 8)
		log := &lines{}
		asked := make(chan struct{}, 8) // an alert was due: may this Mew send?
		l := &Loop{Board: board.DefaultConfig(), Prefs: prefs, Sending: func() bool { asked <- struct{}{}; return sending },
			Send: func(m Message) { sent <- m }, Log: log}
		ctx, cancel := context.WithCancel(context.Background())
		updates := make(chan monitor.Update)
		done := make(chan struct{})
		go func() { l.Run(ctx, updates); close(done) }()
		now := time.Now()
		working := func(id string) session.Shown {
			return session.Shown{ID: id, Agent: "claude", State: session.Working, Since: now.Add(-time.Minute)}
		}
		updates <- monitor.Update{Sessions: list(working("a"), working("muted"))}
		waiting := func(id string) session.Shown {
			return session.Shown{ID: id, Agent: "claude", State: session.Waiting, Reason: session.ReasonPermission, Since: time.Now()}
		}
		// One update, then none: the settle timer must fire the alert.
		updates <- monitor.Update{Sessions: list(waiting("a"), waiting("muted"))}
		if sending {
			select {
			case m := <-sent:
				if m.Session.ID != "a" || m.Event != session.Waiting {
					t.Fatalf("sent %+v", m)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the settled wait was never sent")
			}
			// The muted one's decision is logged, after a's.
			deadline := time.Now().Add(20 * time.Second)
			for !log.has("not sent: X") && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond) // the log line is the event
			}
			if !log.has("not sent: X") {
				t.Fatalf("no word of the muted session: %v", log.l)
			}
		}
		if !sending {
			select {
			case <-asked: // the alerts were due, and held back
			case <-time.After(20 * time.Second):
				t.Fatal("no alert became due")
			}
		}
		cancel()
		<-done
		if len(sent) != 0 {
			t.Fatalf("sending=%v: more sent: %+v", sending, <-sent)
		}
	}
}

func (l *lines) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, x := range l.l {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// list is an update's list of ss.
func list(ss ...session.Shown) []*session.Shown {
	out := make([]*session.Shown, len(ss))
	for i := range ss {
		out[i] = &ss[i]
	}
	return out
}
