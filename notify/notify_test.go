package notify

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestMaskURLNeverShowsTheToken(t *testing.T) {
	cases := map[string]string{
		"https://ntfy.sh/mew-secret-topic":                     "https://ntfy.sh/me…",
		"https://hooks.slack.com/services/T000/B000/XXXXXXXXX": "https://hooks.slack.com/se…/…",
		"http://user:pass@127.0.0.1:8080/x?token=abc":          "http://127.0.0.1:8080/x?…",
		"not a url": "…",
	}
	for in, want := range cases {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWebhookPresets(t *testing.T) {
	m := Message{Event: session.Waiting, Title: "shop needs your permission", Body: "Bash: make test"}
	body, ctype, h, _ := webhookBody(PresetNtfy, m)
	if string(body) != "Bash: make test" || !strings.HasPrefix(ctype, "text/plain") || h["Title"] != m.Title {
		t.Errorf("ntfy: %q %q %v", body, ctype, h)
	}
	body, _, _, _ = webhookBody(PresetSlack, m)
	var slack map[string]string
	if json.Unmarshal(body, &slack) != nil || slack["text"] != m.Title+"\n"+m.Body {
		t.Errorf("slack: %s", body)
	}
	body, _, _, _ = webhookBody("", m)
	var back Message
	if json.Unmarshal(body, &back) != nil || back.Title != m.Title || back.Event != session.Waiting {
		t.Errorf("json: %s", body)
	}
}

// blockingSender holds every send until released: a sink that hangs.
type blockingSender struct {
	mu      sync.Mutex
	started chan string
	release chan struct{}
	sent    []string
}

func (b *blockingSender) send(ctx context.Context, m Message) error {
	b.started <- m.Session.ID
	select {
	case <-b.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	b.mu.Lock()
	b.sent = append(b.sent, m.Session.ID)
	b.mu.Unlock()
	return nil
}

type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) Printf(f string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.l = append(l.l, strings.TrimSpace(strings.ReplaceAll(f, "%s", "X")))
}

// A hung sink never blocks Send: its queue fills, the rest is dropped and
// logged; the rate limit drops what comes too fast.
func TestQueueDropsWhenFullAndRateLimits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &lines{}
	d := &Dispatcher{log: log, status: map[string]SinkStatus{}}
	snd := &blockingSender{started: make(chan string, 16), release: make(chan struct{})}
	lim := Limits{Queue: 2, Burst: 3, Every: time.Hour, Timeout: time.Minute}.withDefaults()
	w := &worker{name: "slow", snd: snd, lim: lim, q: make(chan Message, lim.Queue), d: d}
	d.workers = []*worker{w}
	go w.run(ctx)
	msg := func(id string) Message { return Message{Session: session.Shown{ID: id}} }
	d.Send(msg("a"))
	<-snd.started // a is being sent, and hangs
	for _, id := range []string{"b", "c", "d", "e"} {
		d.Send(msg(id)) // never blocks: b and c queue, d and e are dropped
	}
	if d.status["slow"].Dropped != 2 {
		t.Fatalf("dropped %d, want 2", d.status["slow"].Dropped)
	}
	close(snd.release)
	<-snd.started // b
	<-snd.started // c
	// Burst 3 spent (a, b, c); one an hour after: f is over the limit.
	d.Send(msg("f"))
	deadline := time.After(10 * time.Second)
	for {
		d.mu.Lock()
		n := d.status["slow"].Dropped
		d.mu.Unlock()
		if n == 3 {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("f was not dropped by the rate limit: %v", log.l)
		case id := <-snd.started:
			t.Fatalf("%s was sent past the rate limit", id)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// With the web board's public URL configured, every preset carries the
// link to the session's page.
func TestWebhookPresetsCarryTheLink(t *testing.T) {
	m := Message{Event: session.Waiting, Title: "shop needs your permission", Body: "Bash: make test", Link: "https://box.tail1.ts.net/s?id=abc"}
	_, _, h, _ := webhookBody(PresetNtfy, m)
	if h["Click"] != m.Link {
		t.Errorf("ntfy headers %v", h)
	}
	body, _, _, _ := webhookBody(PresetSlack, m)
	if !strings.Contains(string(body), m.Link) {
		t.Errorf("slack: %s", body)
	}
	body, _, _, _ = webhookBody("", m)
	var back Message
	if json.Unmarshal(body, &back) != nil || back.Link != m.Link {
		t.Errorf("json: %s", body)
	}
	m.Link = ""
	if _, _, h, _ := webhookBody(PresetNtfy, m); h["Click"] != "" {
		t.Errorf("a Click header without a link: %v", h)
	}
}
