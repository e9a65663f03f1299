package notify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// A command that leaves a child behind holding its stderr (`notify-send …
// &`) exited 0: the alert is delivered once, not counted failed and retried.
func TestCommandSinkWithLingeringChildIsSentOnce(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &lines{}
	d := &Dispatcher{log: log, status: map[string]SinkStatus{}}
	snd := commandSender{argv: []string{"sh", "-c", `echo x >> "$0"; sleep 5 & exit 0`, count}}
	lim := Limits{Attempts: 3, Backoff: time.Millisecond, Timeout: 20 * time.Second}.withDefaults()
	w := &worker{name: "cmd", snd: snd, lim: lim, q: make(chan Message, 1), d: d}
	w.deliver(ctx, Message{Session: session.Shown{ID: "s1"}})
	b, _ := os.ReadFile(count)
	if n := strings.Count(string(b), "x"); n != 1 {
		t.Errorf("the command ran %d times, want 1 (log %v)", n, log.l)
	}
	if st := d.status["cmd"]; st.LastError != "" || st.LastOK.IsZero() {
		t.Errorf("status %+v, want delivered", st)
	}
}

// The command's own failure still counts: exit 3 is retried and reported.
func TestCommandSinkFailureStillCounts(t *testing.T) {
	err := commandSender{argv: []string{"sh", "-c", "echo nope >&2; sleep 5 & exit 3"}}.send(context.Background(), Message{})
	if err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("err %v, want exit status 3", err)
	}
}
